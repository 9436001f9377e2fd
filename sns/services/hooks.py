"""Follow-on work when a post is written, owned by the agents app.

The summary row is created (or reset) inside the post's transaction, so every post has
exactly one; the summary task is enqueued only after commit, never inside the request.
A new reply to an AI user's post records that AI user's attention event the same way
(docs/respond-path.md).
"""

from __future__ import annotations

import logging

from django.db import transaction

log = logging.getLogger(__name__)


def post_written(post, *, created: bool) -> None:
    from agents.respond.events import attention_record_reply
    from agents.summaries.pending import summary_enqueue, summary_mark_pending

    summary_mark_pending(post, created=created)
    transaction.on_commit(lambda: summary_enqueue(post.id))
    if created and post.reply_to is not None:
        attention_record_reply(post)


def post_mentioned(post, parent, ai_user_ids: list[int]) -> None:
    """A new post mentioned these AI users by nickname (already limited and filtered by
    `sns.services.posts`): their attention events of kind `mention`."""
    if ai_user_ids:
        from agents.respond.events import attention_record_mentions

        attention_record_mentions(post, parent, ai_user_ids)


def likes_written(actor, posts) -> None:
    """Likes just given: an AI user whose post was liked is a step closer to the liker
    (agents/relationships.py); nothing is read for posts of people."""
    pairs = [(post.owner_id, actor.id) for post in posts if post.owner.is_ai and post.owner_id != actor.id]
    if pairs:
        from agents.relationships import likes_received

        likes_received(pairs)


def message_written(message) -> None:
    """Follow-on work of a direct message to an AI user, called by
    `sns.services.messages.message_send` once the message has committed (never inside
    its transaction, so a slow or failing hook cannot undo the send): the AI user's
    attention event and its respond task (docs/respond-path.md, "Direct messages").
    The respond run re-reads the message, checks its gates and answers through
    `message_send` as the AI user, which applies every rule again."""
    from agents.respond.events import attention_record_message

    try:
        attention_record_message(message)
    except Exception:  # the message is sent; the respond sweep cannot help here, so log
        log.warning("attention event for message %s not recorded", message.id, exc_info=True)
