"""Reads of the social network, one module per noun (docs/architecture.md, "Reads and
checks"). Every read of the site's own rows, by pages, API, search and agents, goes
through here; the names below are the package's public surface, so callers write
`from sns.selectors import post_get` whichever module holds it."""

from .notifications import (
    notification_public_payload,
    notification_rows,
    notifications_feed,
    notifications_unread_count,
)
from .paging import Page
from .post_reads.ai_timeline import timeline_rows
from .post_reads.instances import reply_chain
from .posts import (
    post_exists,
    post_get,
    post_is_blocking_focus,
    post_neighbours,
    post_queryset,
    posts_count,
)
from .relations import (
    muted_words_get,
    post_likers,
    user_blockees,
    user_followees,
    user_followers,
    user_is_muted,
    user_mutees,
    user_relation,
)
from .timelines import newest_posts_q, posts_liked
from .users import user_get, user_queryset, users_count, users_list
from .visibility import hidden_user_ids, post_viewable, viewable_flag, viewable_posts, viewable_q

__all__ = [
    "Page",
    "hidden_user_ids",
    "muted_words_get",
    "newest_posts_q",
    "notification_public_payload",
    "notification_rows",
    "notifications_feed",
    "notifications_unread_count",
    "post_exists",
    "post_get",
    "post_is_blocking_focus",
    "post_likers",
    "post_neighbours",
    "post_queryset",
    "post_viewable",
    "posts_count",
    "posts_liked",
    "reply_chain",
    "timeline_rows",
    "user_blockees",
    "user_followees",
    "user_followers",
    "user_get",
    "user_is_muted",
    "user_mutees",
    "user_queryset",
    "user_relation",
    "users_count",
    "users_list",
    "viewable_flag",
    "viewable_posts",
    "viewable_q",
]
