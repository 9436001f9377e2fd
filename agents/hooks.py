"""The agents app's answers to the rulebook's signals (sns/extensions.py), connected in
AgentsConfig.ready(): what an AI user must know when people write."""

from __future__ import annotations

from django.db import transaction


def on_post_written(sender, *, post, created: bool, **_) -> None:
    from agents.respond.events import attention_record_reply
    from agents.summaries.pending import summary_enqueue, summary_mark_pending

    if not created:  # a new post's summary row went in with it (summary_row_for_new_post)
        summary_mark_pending(post)
    transaction.on_commit(lambda: summary_enqueue(post.id))
    if created and post.reply_to is not None:
        attention_record_reply(post)


def on_post_mentioned(sender, *, post, parent, ai_user_ids: list[int], **_) -> None:
    from agents.respond.events import attention_record_mentions

    attention_record_mentions(post, parent, ai_user_ids)


def on_likes_written(sender, *, pairs: list[tuple[int, int]], **_) -> None:
    from agents.relationships import likes_received

    likes_received(pairs)


def on_message_written(sender, *, message, **_) -> None:
    from agents.respond.events import attention_record_message

    attention_record_message(message)


def summary_row_for_new_post(post) -> list:
    from agents.summaries.pending import summary_row_new

    return [summary_row_new(post)]


def connect() -> None:
    from sns import extensions

    extensions.register_post_rows(summary_row_for_new_post)

    extensions.post_written.connect(on_post_written, dispatch_uid="agents.post_written")
    extensions.post_mentioned.connect(on_post_mentioned, dispatch_uid="agents.post_mentioned")
    extensions.likes_written.connect(on_likes_written, dispatch_uid="agents.likes_written")
    extensions.message_written.connect(on_message_written, dispatch_uid="agents.message_written")
