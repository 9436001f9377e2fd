"""The rulebook: every social write, acting user first. Pages, the API and the AI
agents all call these functions; nothing else writes social rows."""

from .notifications import (
    notification_mark,
    notification_mark_all,
    notifications_gathered,
    notifications_mark_read,
    notifications_purge,
)
from .posts import post_create, post_delete, post_update
from .shares import bookmark_add, bookmark_remove, quote_create, repost_add, repost_remove
from .social import block_add, block_remove, follow_add, follow_remove, follows_add, follows_remove, like_add, like_remove, likes_add
from .sessions import session_login, session_logout, session_password_change, session_switch_user
from .users import user_create, user_delete, user_set_password, user_update

__all__ = [
    "bookmark_add",
    "bookmark_remove",
    "quote_create",
    "repost_add",
    "repost_remove",
    "block_add",
    "block_remove",
    "follow_add",
    "follow_remove",
    "follows_add",
    "follows_remove",
    "like_add",
    "like_remove",
    "likes_add",
    "notification_mark",
    "notification_mark_all",
    "notifications_gathered",
    "notifications_mark_read",
    "notifications_purge",
    "post_create",
    "post_delete",
    "post_update",
    "session_login",
    "session_logout",
    "session_password_change",
    "session_switch_user",
    "user_create",
    "user_delete",
    "user_set_password",
    "user_update",
]
