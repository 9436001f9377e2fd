"""The footer's theme switch: a cookie the page renders as data-theme on <html>, so the
choice applies before any script; "system" (and anything unknown) leaves it to the
device's setting."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def html_tag(response) -> str:
    body = response.content.decode()
    return body[body.index("<html"): body.index(">", body.index("<html")) + 1]


@pytest.mark.parametrize(("choice", "attribute"), [("dark", ' data-theme="dark"'), ("light", ' data-theme="light"'), ("system", "")])
def test_the_choice_is_kept_and_rendered(choice, attribute):
    client = Client()
    response = client.post("/theme", {"theme": choice, "next": "/login"})
    assert response.status_code == 302 and response["Location"] == "/login"
    assert response.cookies["stgy_theme"].value == choice
    page = client.get("/login")
    assert html_tag(page).endswith(f'lang="en"{attribute}>')
    assert f'<option value="{choice}" selected>' in page.content.decode()


def test_an_unknown_theme_changes_nothing_and_a_foreign_next_is_ignored():
    client = Client()
    response = client.post("/theme", {"theme": "neon", "next": "https://evil.example/"})
    assert response["Location"] == "/" and "stgy_theme" not in response.cookies
    client.cookies["stgy_theme"] = "<script>"
    assert "data-theme" not in html_tag(client.get("/login"))


def test_every_page_has_a_skip_link_to_the_main_content():
    body = Client().get("/login").content.decode()
    assert body.index('class="skip-link" href="#main"') < body.index("<header")
    assert '<main id="main"' in body
