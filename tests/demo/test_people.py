"""People live in the demo too (agents/demo/people.py): the seeded people, not the
visitor's account, take turns writing a root post from the corpus and replying in their
own language to a root post they have not answered; a turn is written once; some seeded
posts are published, so a visitor who is not logged in finds them on the front page."""

from __future__ import annotations

import pytest

from agents.demo import people_data, seed_data
from agents.demo.people import KEY, people_write
from agents.demo.seed import seed_demo_community
from agents.local_loop import LocalAgentLoop
from agents.recent_texts import title_of
from sns.models import Post

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _quiet(settings):
    settings.STGY_AI_PROVIDER = "none"  # no summary or respond work on the side
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def seeded():
    seed_demo_community()


def _lang(text: str) -> str:
    return "ja" if any("\u3040" <= ch <= "\u30ff" for ch in text) else "en"


def test_people_take_turns_with_posts_and_replies_in_their_language(seeded):
    written = [people_write() for _ in range(8)]
    assert all(p is not None for p in written)
    roots, replies = written[0::2], written[1::2]
    assert all(p.reply_to is None for p in roots) and all(p.reply_to is not None for p in replies)
    assert [p.content for p in roots] == [c for _, _, _, c in people_data.ROOT_POSTS[:4]]
    visitor = seed_data.HUMANS[0]["nickname"]
    for post in written:
        assert not post.owner.is_ai and post.owner.nickname != visitor
    for reply in replies:
        parent = Post.objects.get(pk=reply.reply_to)
        assert parent.reply_to is None and parent.owner_id != reply.owner_id
        assert _lang(reply.content) == _lang(parent.content)
        assert reply.content in people_data.REPLIES[_lang(reply.content)]
    assert Post.objects.filter(idempotency_key__startswith=KEY).count() == 8


def test_a_turn_goes_on_where_the_last_one_stopped(seeded):
    assert people_write().idempotency_key == f"{KEY}0"
    second = people_write()
    assert second.idempotency_key == f"{KEY}1" and second.reply_to is not None


def test_the_loop_lets_people_write_at_their_pace(seeded):
    loop = LocalAgentLoop(people_every=0)
    loop._people()
    assert not Post.objects.filter(idempotency_key__startswith=KEY).exists()
    loop = LocalAgentLoop(people_every=0.001)
    loop._people_at -= 1
    loop._people()
    assert Post.objects.filter(idempotency_key__startswith=KEY).count() == 1


def test_a_visitor_finds_published_posts_on_the_front_page(seeded, client):
    body = client.get("/").content.decode()
    published = Post.objects.filter(
        published_at__isnull=False, owner__email__endswith="@demo.stgy.local"
    )
    assert published.count() == len(people_data.PUBLISHED_SEED_POSTS)
    for index in people_data.PUBLISHED_SEED_POSTS:
        content = seed_data.POSTS[index]["content"]
        assert title_of(content)[:20].lower() in body.lower() or content[:40] in body
