"""The conversation list, a conversation and the unread counts cost a constant number
of queries, whatever the number of conversations and messages."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from sns.services import messages as dm
from tests.conftest import login_client
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def _grow(human, n):
    for i in range(n):
        other = make_user(f"peer{i}")
        dm.message_send(other, human.id, content=f"hello {i}")
        dm.message_send(human, other.id, content=f"reply {i}")
        dm.message_send(other, human.id, content=f"again {i}")
        # A stranger Alice never answered: a request.
        dm.message_send(make_user(f"stranger{i}"), human.id, content=f"psst {i}")


def _count(client, path) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return len(queries)


@pytest.mark.parametrize(
    "path",
    [
        "/api/messages/conversations",
        "/api/messages/conversations?folder=requests",
        "/api/messages/conversations/{peer}",
        "/api/messages/unread-count",
    ],
)
def test_query_count_is_constant(human, settings, path):
    settings.STGY_HOURLY_MESSAGES_COUNT_LIMIT = 1000
    peer = make_user("Peer")
    for i in range(3):
        dm.message_send(peer, human.id, content=f"m{i}")
    _grow(human, 3)
    path = path.format(peer=peer.hex_id)
    client = login_client(human)
    client.get(path)
    small = _count(client, path)
    _grow(human, 12)
    for i in range(12):
        dm.message_send(peer, human.id, content=f"more {i}")
    assert _count(client, path) == small
    if "unread" not in path:
        assert len(client.get(path).json()) >= 12
    assert small <= 6
