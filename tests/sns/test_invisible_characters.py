"""Characters that show nothing leave nicknames and tags, by the one rule that already
removed bidi controls (sns/core/textguard.py strip_invisible; README, "Input limits"): a
zero-width space, a soft hyphen or a Hangul filler cannot make one name pass for
another. Emoji built with a zero-width joiner or a variation selector stay whole."""

from __future__ import annotations

import pytest

from sns.models import Post, User
from tests.conftest import login_client
from tests.web.account_steps import sign_up_on_the_pages

pytestmark = pytest.mark.django_db

DISGUISES = [
    "ad\u200bmin",  # zero-width space
    "ad\u00admin",  # soft hyphen
    "a\u2060d\ufeffmin",  # word joiner, zero-width no-break space
    "ad\u200dmin",  # a zero-width joiner between letters
    "ad\ufe0fmin",  # a variation selector after a letter
    "\u3164admin\u2800",  # Hangul filler, blank braille pattern
    "ad\U000e0041min",  # a tag character
    "\u202eadmin",  # a bidi override (removed before too)
]


@pytest.mark.parametrize("nickname", DISGUISES)
def test_a_disguised_nickname_is_stored_plain(human, nickname):
    response = login_client(human).put(
        f"/api/users/{human.hex_id}", {"nickname": nickname}, format="json"
    )
    assert response.status_code == 200 and response.json()["nickname"] == "admin"
    assert User.objects.get(pk=human.pk).nickname == "admin"


def test_a_nickname_of_nothing_but_invisible_characters_is_no_nickname(human):
    response = login_client(human).put(
        f"/api/users/{human.hex_id}", {"nickname": "\u200b\u00ad\u2800"}, format="json"
    )
    assert response.status_code == 400 and response.json() == {"error": "nickname is required"}


def test_tags_lose_them_too(human):
    response = login_client(human).post(
        "/api/posts",
        {"content": "hello", "tags": ["sour\u200bdough", "sour\u00addough", "ba\u2060ke"]},
        format="json",
    )
    assert response.status_code == 201
    assert sorted(Post.objects.get().tag_names) == ["bake", "sourdough"]


def test_emoji_sequences_stay_whole(human):
    family, fire_heart = "\U0001f468\u200d\U0001f469\u200d\U0001f467", "\u2764\ufe0f\u200d\U0001f525"
    response = login_client(human).put(
        f"/api/users/{human.hex_id}", {"nickname": f"Alice {family} {fire_heart}"}, format="json"
    )
    assert response.json()["nickname"] == f"Alice {family} {fire_heart}"


def test_the_sign_up_page_holds_to_the_same_rule(client):
    response = sign_up_on_the_pages(
        client, "newcomer@example.com", nickname="ad\u200bmin", password="pale-blue-kettle"
    )
    assert response.status_code == 302
    assert User.objects.get(email="newcomer@example.com").nickname == "admin"
