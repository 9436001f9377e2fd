"""Migration 0012 keeps the message reports there were: they become reports of kind
"message" in the one table, and its constraints hold for them."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("sns", "0011_reposts_quotes_bookmarks")]
AFTER = [("sns", "0012_reports_of_posts")]


def test_message_reports_survive_the_migration():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    User, Conversation = old.get_model("sns", "User"), old.get_model("sns", "Conversation")
    Message, MessageReport = old.get_model("sns", "Message"), old.get_model("sns", "MessageReport")
    now = timezone.now()
    a = User.objects.create(email="a@example.com", nickname="A", id=11)
    b = User.objects.create(email="b@example.com", nickname="B", id=12)
    conversation = Conversation.objects.create(id=21, user_low=a, user_high=b)
    message = Message.objects.create(id=31, conversation=conversation, sender=a, content="hi")
    MessageReport.objects.create(id=41, message=message, reporter=b, reason="rude", created_at=now)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    report = new.get_model("sns", "Report").objects.get(pk=41)
    assert (report.kind, report.message_id, report.post_id, report.reason, report.note) == (
        "message", 31, None, "rude", ""
    )
    # Back to the newest state for the tests after this one.
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
