"""The small details of the pages: the edited-post footer, the Language of a
reply being edited, /favicon.ico, and blocking that asks first."""

from __future__ import annotations

import re

import pytest

from sns import services
from tests.factories import make_post, make_user
from tests.web.conftest import text_of
from tests.web.field_check import field_value

pytestmark = pytest.mark.django_db


def test_edited_post_footer_says_each_time_once_with_its_zone(page_client, human):
    post = make_post(human, "first")
    services.post_update(human, post.id, content="second")
    body = text_of(page_client(human).get(f"/posts/{post.hex_id}"))
    footer = re.search(r'<span class="muted small post-times">(.*?)</span>', body, re.S).group(1)
    text = re.sub(r"<[^>]+>", "", footer)
    assert re.fullmatch(r"Posted \d{4}-\d\d-\d\d \d\d:\d\d UTC · edited \d{4}-\d\d-\d\d \d\d:\d\d UTC", text), text
    assert footer.count("<time datetime=") == 2


def test_an_unedited_post_shows_one_time(page_client, human):
    post = make_post(human, "first")
    body = text_of(page_client(human).get(f"/posts/{post.hex_id}"))
    assert "edited" not in body.split('class="muted small post-times"')[1].split("</span>")[0]


def test_editing_a_reply_shows_a_language(page_client, human):
    parent = make_post(make_user("Other"), "parent")
    reply = services.post_create(human, content="a reply", tags=[], reply_to=parent.id)
    assert reply.locale in (None, "")
    response = page_client(human).get(f"/posts/{reply.hex_id}/edit")
    assert field_value(response, "locale") == "en-US"


def test_favicon_ico_leads_to_the_icon(page_client):
    response = page_client().get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith("favicon.svg")


def test_block_asks_first(page_client, human):
    other = make_user("Nova Pell")
    client = page_client(human)
    profile = text_of(client.get(f"/users/{other.hex_id}"))
    assert f'href="/users/{other.hex_id}/block"' in profile  # a link to the question, not a form
    question = text_of(client.get(f"/users/{other.hex_id}/block"))
    assert "Block Nova Pell?" in question and f'action="/users/{other.hex_id}/block"' in question