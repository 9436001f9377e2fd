"""Two writers of one AI user's reply to one post at the same moment (its cycle and its
respond path): the second waits for the first's lock and then sees its reply under
PostgreSQL's READ COMMITTED. (The test database of SQLite, in memory, refuses a second
writer at once instead of waiting; the embedded mode's file database waits.)"""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connections, transaction

from sns import services
from sns.core.errors import Conflict
from sns.models import Post
from tests.conftest import requires_postgres
from tests.factories import make_ai_user, make_user

pytestmark = pytest.mark.django_db(transaction=True)


@requires_postgres
def test_the_second_writer_waits_and_is_refused(settings):
    settings.STGY_AI_PROVIDER = "none"  # no hooks' follow-on work in the threads
    ai, person = make_ai_user("Aiko"), make_user("Mina")
    target = services.post_create(person, content="Rye or spelt?", tags=[])
    first_wrote, outcomes = threading.Event(), {}

    def first():
        try:
            with transaction.atomic():
                services.post_create(ai, content="Rye.", tags=[], reply_to=target.id,
                                     idempotency_key="cycle", reply_once=True)
                first_wrote.set()
                time.sleep(0.5)  # the second writer arrives while this holds the lock
            outcomes["first"] = "written"
        finally:
            connections.close_all()

    def second():
        try:
            first_wrote.wait(5)
            services.post_create(ai, content="Spelt.", tags=[], reply_to=target.id,
                                 idempotency_key="respond", reply_once=True)
            outcomes["second"] = "written"
        except Conflict:
            outcomes["second"] = "refused"
        finally:
            connections.close_all()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert outcomes == {"first": "written", "second": "refused"}
    assert list(Post.objects.filter(owner=ai, reply_to=target.id).values_list("content", flat=True)) == ["Rye."]


def test_a_redelivery_gets_its_own_reply_back(settings):
    settings.STGY_AI_PROVIDER = "none"
    ai, person = make_ai_user("Aiko"), make_user("Mina")
    target = services.post_create(person, content="Rye or spelt?", tags=[])
    kwargs = {"content": "Rye.", "tags": [], "reply_to": target.id, "idempotency_key": "respond:1", "reply_once": True}
    first = services.post_create(ai, **kwargs)
    assert services.post_create(ai, **kwargs).pk == first.pk
    with pytest.raises(Conflict):
        services.post_create(ai, **{**kwargs, "idempotency_key": "respond:2"})
