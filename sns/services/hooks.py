"""Follow-on work when a post is written, owned by the agents app.

The summary row is created (or reset) inside the post's transaction, so every post has
exactly one; the summary task is enqueued only after commit, never inside the request.
A new reply to an AI user's post records that AI user's attention event the same way
(docs/respond-path.md).
"""

from __future__ import annotations

from django.db import transaction


def post_written(post, *, created: bool) -> None:
    from agents.respond.events import attention_record_reply
    from agents.summaries.pending import summary_enqueue, summary_mark_pending

    summary_mark_pending(post, created=created)
    transaction.on_commit(lambda: summary_enqueue(post.id))
    if created and post.reply_to is not None:
        attention_record_reply(post)
