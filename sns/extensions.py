"""The seam between the rulebook and the apps built on it: `sns` never imports
`agents` (docs/architecture.md, "The seam").

Three kinds of seam, all filled by an app's AppConfig.ready():

- **Signals** the services send after they write (`sns.services.hooks`): a post written
  (inside its transaction, so work that must commit with the post can), AI users
  mentioned, likes given, a direct message committed. Receivers run synchronously; a
  receiver that needs to defer work uses `transaction.on_commit` itself.
- **Rows with a new post**: providers of the rows an app keeps for every new post
  (agents: its pending summary row), which `sns.services.post_insert` inserts with the
  post — in the post's own statement on PostgreSQL.
- **Page extras**: optional providers the pages ask for what they can show beside the
  rulebook's own data — recommended posts for the "For you" tab, related posts. With
  none registered the pages simply leave those parts out.
- **The task submitter**: how `sns` hands a Celery task over without a request ever
  waiting on the broker (agents registers `agents.runner.submit_task`, docs/architecture.md
  §6); sns's own background work — a link preview's fetch, a track's parsing — goes
  through `submit_task` here.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.dispatch import Signal

# post, created (bool)
post_written = Signal()
# post, parent (the post replied to, or None), ai_user_ids
post_mentioned = Signal()
# pairs: [(owner id of a liked post, liker id)] for likes just given to AI users' posts
likes_written = Signal()
# message, after its transaction committed
message_written = Signal()


# (post) -> unsaved model instances to insert with the new post
_post_rows: list[Callable[[Any], list]] = []


def register_post_rows(provider: Callable[[Any], list]) -> None:
    if provider not in _post_rows:
        _post_rows.append(provider)


def post_rows(post) -> list:
    """The rows the registered apps keep for the new `post`, unsaved."""
    return [row for provider in _post_rows for row in provider(post)]


@dataclass
class PageExtras:
    # (viewer, *, offset, limit) -> posts, for the "For you" tab
    recommended_posts: Callable[..., Any] | None = None
    # (viewer, *, asked) -> whether to offer the tab; may start background work
    recommendations_offered: Callable[..., bool] | None = None
    # (post, viewer, *, limit, compute) -> posts, or None when not ready without computing
    related_posts: Callable[..., Any] | None = None


_extras = PageExtras()


def register_page_extras(**providers: Callable[..., Any]) -> None:
    for name, provider in providers.items():
        if not hasattr(_extras, name):
            raise TypeError(f"unknown page extra {name!r}")
        setattr(_extras, name, provider)


def page_extras() -> PageExtras:
    return _extras


# (task, *args) -> None; never raises, never blocks
_submitter: Callable[..., Any] | None = None


def register_task_submitter(submitter: Callable[..., Any]) -> None:
    global _submitter
    _submitter = submitter


def submit_task(task, *args) -> None:
    """Hand `task(*args)` to Celery through the registered submitter. Without one (sns
    alone), Celery's own publish, whose failure is logged, not raised."""
    if _submitter is not None:
        _submitter(task, *args)
        return
    try:
        task.delay(*args)
    except Exception:
        logging.getLogger(__name__).exception("could not submit %s", task.name)
