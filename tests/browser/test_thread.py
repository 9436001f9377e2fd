"""In a real browser: a link to a reply folded deep in a thread opens the folds around
it and the reply is shown highlighted (:target); without the link the folds stay shut."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from sns import services
from tests.factories import make_post, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_linked_deep_reply_is_unfolded_and_highlighted(open_session):
    mina, kai = make_user("Mina"), make_user("Kai")
    root = make_post(mina, "Root of the thread")
    parent = root
    chain = []
    for i in range(4):
        parent = services.post_create(kai if i % 2 == 0 else mina, content=f"Level {i + 1}", tags=[], reply_to=parent.id)
        chain.append(parent)
    deep = chain[3]
    page = open_session(mina).page
    page.goto(f"/posts/{root.hex_id}")
    expect(page.locator(f"#post-{chain[0].hex_id}")).to_be_visible()
    expect(page.locator(f"#post-{deep.hex_id}")).to_be_hidden()
    page.goto(f"/posts/{root.hex_id}#post-{deep.hex_id}")
    card = page.locator(f"#post-{deep.hex_id}")
    expect(card).to_be_visible()
    outline = card.evaluate("el => getComputedStyle(el).outlineStyle")
    assert outline == "solid"
