"""People: list and search, profiles, follow/block, and the AI memory page."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from agents.models import Interest, PeerImpression, PostImpression
from sns import services
from sns.models import Block, Follow
from tests.factories import make_ai_user, make_post, make_user
from tests.web.conftest import text_of

pytestmark = pytest.mark.django_db


def test_user_list_searches_by_nickname_and_filters_ai(page_client, human, ai_user):
    make_user("Alicia")
    client = page_client(human)
    body = text_of(client.get("/users?q=ali"))
    assert "Alice" in body and "Alicia" in body and "Aiko" not in body
    ai_only = text_of(client.get("/users?ai=1"))
    assert "Aiko" in ai_only and "Alicia" not in ai_only


def test_profile_shows_counts_introduction_and_posts(page_client, human, follower):
    services.user_update(human, human.id, introduction="I *bake* bread.")
    make_post(human, "a post on my profile")
    body = text_of(page_client(follower).get(f"/users/{human.hex_id}"))
    assert "<em>bake</em>" in body
    assert "<strong>1</strong> posts" in body and "<strong>1</strong> followers" in body
    assert "a post on my profile" in body
    assert "Unfollow" in body  # Bob follows Alice


def test_follow_unfollow_block_unblock(page_client, human):
    carol = make_user("Carol")
    client = page_client(carol)
    here = f"/users/{human.hex_id}"
    assert client.post(f"{here}/follow", {"next": here})["Location"] == here
    assert Follow.objects.filter(follower=carol, followee=human).exists()
    assert "Unfollow" in text_of(client.get(here))
    client.post(f"{here}/unfollow", {"next": here})
    assert not Follow.objects.filter(follower=carol, followee=human).exists()

    client.post(f"{here}/block", {"next": here})
    assert Block.objects.filter(blocker=carol, blockee=human).exists()
    assert "Unblock" in text_of(client.get(here))
    client.post(f"{here}/unblock", {"next": here})
    assert not Block.objects.filter(blocker=carol, blockee=human).exists()


def test_follow_refused_by_block_strangers(page_client, human):
    services.user_update(human, human.id, block_strangers=True)
    carol = make_user("Carol")
    response = page_client(carol).post(f"/users/{human.hex_id}/follow", follow=True)
    assert "blocked by the user" in text_of(response)
    assert response.redirect_chain[-1][0] == f"/users/{human.hex_id}"


def test_cannot_follow_yourself(page_client, human):
    response = page_client(human).post(f"/users/{human.hex_id}/follow", follow=True)
    assert "cannot follow yourself" in text_of(response)


def test_ai_profile_shows_badge_to_everyone_and_personality_only_to_self_and_admin(
    page_client, human, ai_user, admin
):
    other = text_of(page_client(human).get(f"/users/{ai_user.hex_id}"))
    assert 'class="badge ai"' in other and "balanced" in other
    assert "fermentation" not in other
    assert f"/users/{ai_user.hex_id}/memory" not in other

    for viewer in (ai_user, admin):
        body = text_of(page_client(viewer).get(f"/users/{ai_user.hex_id}"))
        assert "A cheerful chef who loves fermentation." in body
        assert f"/users/{ai_user.hex_id}/memory" in body


def _memory(ai_user, human):
    now = timezone.now()
    Interest.objects.create(
        user=ai_user,
        updated_at=now,
        interest="Koji and slow food.",
        tags=["koji", "miso"],
        features=b"\0" * 512,
    )
    post = make_post(human, "my miso recipe")
    PeerImpression.objects.create(
        user=ai_user,
        peer=human,
        updated_at=now,
        payload='{"impression": "Alice bakes well.", "tags": ["bread"], "shouldFollow": true}',
    )
    PostImpression.objects.create(
        user=ai_user,
        peer=human,
        post=post,
        updated_at=now - timedelta(minutes=5),
        payload='{"impression": "A careful recipe.", "tags": ["miso"], '
        '"shouldLike": true, "shouldReply": false}',
    )
    return post


def test_memory_page_is_forbidden_to_other_users(page_client, human, follower, ai_user):
    _memory(ai_user, human)
    for viewer in (human, follower, make_ai_user("Other AI")):
        response = page_client(viewer).get(f"/users/{ai_user.hex_id}/memory")
        assert response.status_code == 403
        body = text_of(response)
        assert "Koji and slow food" not in body and "Alice bakes well" not in body


def test_memory_page_needs_a_session(page_client, ai_user):
    response = page_client().get(f"/users/{ai_user.hex_id}/memory")
    assert response.status_code == 302 and response["Location"].startswith("/login")


@pytest.mark.parametrize("who", ["self", "admin"])
def test_memory_page_shows_interest_and_impressions_to_self_and_admin(
    page_client, human, ai_user, admin, who
):
    post = _memory(ai_user, human)
    viewer = ai_user if who == "self" else admin
    body = text_of(page_client(viewer).get(f"/users/{ai_user.hex_id}/memory"))
    assert "Koji and slow food." in body and "#koji" in body and "Updated" in body
    assert "Alice bakes well." in body and "would follow" in body
    assert "A careful recipe." in body and "would like" in body and "would reply" not in body
    assert f"/posts/{post.hex_id}" in body


def test_memory_impressions_are_paged(page_client, human, ai_user):
    now = timezone.now()
    for i in range(25):
        peer = make_user(f"Peer {i:02d}")
        PeerImpression.objects.create(
            user=ai_user,
            peer=peer,
            updated_at=now - timedelta(minutes=i),
            payload=f'{{"impression": "imp {i:02d}"}}',
        )
    client = page_client(ai_user)
    first = text_of(client.get(f"/users/{ai_user.hex_id}/memory"))
    assert "imp 00" in first and "imp 19" in first and "imp 20" not in first
    assert "?peers=1" in first
    second = text_of(client.get(f"/users/{ai_user.hex_id}/memory?peers=1"))
    assert "imp 20" in second and "imp 24" in second and "imp 19" not in second


def test_memory_page_of_a_human_is_not_found(page_client, human, admin):
    assert page_client(admin).get(f"/users/{human.hex_id}/memory").status_code == 404


def test_raw_payload_that_is_not_json_is_shown_as_text(page_client, human, ai_user):
    PeerImpression.objects.create(
        user=ai_user, peer=human, updated_at=timezone.now(), payload="<b>plain</b> words"
    )
    body = text_of(page_client(ai_user).get(f"/users/{ai_user.hex_id}/memory"))
    assert "&lt;b&gt;plain&lt;/b&gt; words" in body
