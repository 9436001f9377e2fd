"""Our pages show a snippet's plain text, never the stored tree (docs/data-model.md,
"Snippets")."""

from __future__ import annotations

import pytest

from sns import services
from tests.factories import make_post
from tests.web.conftest import text_of

pytestmark = pytest.mark.django_db


def test_pages_show_plain_excerpts_not_the_tree(page_client, human, follower):
    services.user_update(human, human.id, introduction="I grow **tomatoes** and ::basil::.")
    post = make_post(human, "# Harvest day\n\nThe **first** tomato of the year.")
    users_page = text_of(page_client(follower).get("/users"))
    assert "I grow tomatoes and basil." in users_page and '{"T"' not in users_page
    detail = text_of(page_client(follower).get(f"/posts/{post.hex_id}"))
    title = detail[detail.index("<title>"):detail.index("</title>")]
    assert "Harvest day" in title and '"T"' not in title and "{" not in title
    delete_page = text_of(page_client(human).get(f"/posts/{post.hex_id}/delete"))
    assert "The first tomato of the year." in delete_page and '{"T"' not in delete_page
