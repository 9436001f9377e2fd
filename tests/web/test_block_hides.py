"""A block hides, both ways, on every page type (sns/selectors/visibility.py): the
blocked user's posts and replies vanish from the blocker's timelines, threads, search,
notifications and their profile's post list, and the blocked user no longer sees the
blocker's posts. Blocking asks first."""

from __future__ import annotations

import pytest
from django.test import TestCase

from sns import services
from sns.models import Block
from tests.factories import make_post, make_user

from .conftest import text_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def scene():
    mina, nova, kai = make_user("Mina"), make_user("Nova"), make_user("Kai")
    services.follow_add(mina, nova.id)
    services.follow_add(nova, mina.id)
    services.follow_add(mina, kai.id)
    kai_root = make_post(kai, "Kai asks about sourdough starters")
    kai_reply = make_post(kai, "Kai answers himself first", reply_to=kai_root.id)
    with TestCase.captureOnCommitCallbacks(execute=True):
        nova_root = make_post(nova, "Novaword root post about bread")
        nova_reply = make_post(nova, "Novaword reply in the thread", reply_to=kai_root.id)
        nova_deep = make_post(nova, "Novaword deep reply in the tree", reply_to=kai_reply.id)
        mina_post = make_post(mina, "Minaword post about rye")
        services.like_add(nova, mina_post.id)
        make_post(nova, "Novaword answer to Mina", reply_to=mina_post.id)
    return {
        "mina": mina, "nova": nova, "kai": kai, "kai_root": kai_root, "nova_root": nova_root,
        "nova_reply": nova_reply, "nova_deep": nova_deep, "mina_post": mina_post,
    }


SEARCHED = {"Nova": "bread", "Mina": "rye"}  # a word of their posts that is not their marker


def _pages(s, of: str) -> dict[str, str]:
    """The page types a person reads, as paths."""
    return {
        "following": "/?tab=following",
        "everyone": "/?tab=everyone",
        "thread": f"/posts/{s['kai_root'].hex_id}",
        "search": f"/search?q={SEARCHED[of]}",
        "profile": f"/users/{s[of.lower()].hex_id}",
    }


def test_before_the_block_everyone_sees_everything(scene, page_client):
    mina = page_client(scene["mina"])
    for name, path in _pages(scene, "Nova").items():
        assert "Novaword" in text_of(mina.get(path)), name
    assert "Nova" in text_of(mina.get("/notifications"))
    nova = page_client(scene["nova"])
    for name, path in _pages(scene, "Mina").items():
        if name != "thread":
            assert "Minaword" in text_of(nova.get(path)), name


def test_blocking_asks_first_then_hides_the_blocked_everywhere(scene, page_client):
    mina = page_client(scene["mina"])
    nova = scene["nova"]
    confirm = mina.get(f"/users/{nova.hex_id}/block")
    assert confirm.status_code == 200 and "Block Nova?" in text_of(confirm)
    assert not Block.objects.exists()  # asking is not blocking
    mina.post(f"/users/{nova.hex_id}/block", {"next": f"/users/{nova.hex_id}"})
    assert Block.objects.filter(blocker=scene["mina"], blockee=nova).exists()

    for name, path in _pages(scene, "Nova").items():
        response = mina.get(path)
        assert response.status_code == 200, name
        assert "Novaword" not in text_of(response), name
    assert "Kai answers himself first" in text_of(mina.get(f"/posts/{scene['kai_root'].hex_id}"))
    notes = text_of(mina.get("/notifications"))
    assert "Nova" not in notes
    assert mina.get(f"/posts/{scene['nova_root'].hex_id}").status_code == 404
    assert "Unblock" in text_of(mina.get(f"/users/{nova.hex_id}"))  # the profile stays, to unblock


def test_the_blocked_user_no_longer_sees_the_blocker(scene, page_client):
    services.block_add(scene["mina"], scene["nova"].id)
    nova = page_client(scene["nova"])
    for name, path in _pages(scene, "Mina").items():
        response = nova.get(path)
        assert response.status_code == 200, name
        assert "Minaword" not in text_of(response), name
    assert nova.get(f"/posts/{scene['mina_post'].hex_id}").status_code == 404
    # Kai, a third party, still sees both.
    kai = page_client(scene["kai"])
    assert "Minaword" in text_of(kai.get("/?tab=everyone"))
    assert "Novaword" in text_of(kai.get("/?tab=everyone"))


def test_unblocking_brings_everything_back(scene, page_client):
    services.block_add(scene["mina"], scene["nova"].id)
    services.block_remove(scene["mina"], scene["nova"].id)
    mina = page_client(scene["mina"])
    for name, path in _pages(scene, "Nova").items():
        assert "Novaword" in text_of(mina.get(path)), name


def test_the_live_count_counts_only_what_the_tab_would_show(scene, page_client):
    services.block_add(scene["mina"], scene["nova"].id)
    mina = page_client(scene["mina"])
    newest = scene["mina_post"].hex_id
    make_post(scene["nova"], "Novaword after the block")
    make_post(scene["kai"], "Kai after the block")
    counts = mina.get(f"/live?tab=everyone&after={newest}").json()
    assert counts["newPosts"] == 1
