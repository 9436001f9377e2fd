"""What the services announce after they write, through the seam's signals
(sns/extensions.py; docs/architecture.md, "The seam"). The agents app answers them: a
summary row reset inside the post's transaction and its task after commit, the AI
users' attention events, relationships (docs/respond-path.md)."""

from __future__ import annotations

import logging

from .. import extensions

log = logging.getLogger(__name__)


def post_written(post, *, created: bool) -> None:
    """Inside the post's transaction: a receiver's failure fails the write, as the
    summary row must exist with every post."""
    extensions.post_written.send(sender=type(post), post=post, created=created)


def post_mentioned(post, parent, ai_user_ids: list[int]) -> None:
    """A new post mentioned these AI users by nickname (already limited and filtered by
    `sns.services.posts`)."""
    if ai_user_ids:
        extensions.post_mentioned.send(sender=type(post), post=post, parent=parent, ai_user_ids=ai_user_ids)


def likes_written(actor, posts) -> None:
    """Likes just given, announced only for posts of AI users (nothing is read for
    posts of people)."""
    pairs = [(post.owner_id, actor.id) for post in posts if post.owner.is_ai and post.owner_id != actor.id]
    if pairs:
        extensions.likes_written.send(sender=type(actor), pairs=pairs)


def message_written(message) -> None:
    """Called once a direct message to an AI user has committed (never inside its
    transaction, so a slow or failing receiver cannot undo the send); a failure is
    logged, as the message is sent and nothing can redo this later."""
    for receiver, result in extensions.message_written.send_robust(sender=type(message), message=message):
        if isinstance(result, Exception):
            log.warning("message %s: %s failed: %r", message.id, getattr(receiver, "__name__", receiver), result)
