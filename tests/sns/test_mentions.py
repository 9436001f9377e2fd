"""Mentions by nickname: `@Nick` / `@[Nick Name]` link to the user in rendered posts,
notify the first 5 mentioned users (slot `name-mention:<post>`), honour blocks and the
"AI users may mention me" boundary, and an AI user's text may mention only the people
of its thread."""

from __future__ import annotations

import pytest

from sns import services
from sns.models import Notification, Post
from sns.reads.markdown import render_html
from sns.reads.mentions import mention_links, mention_names
from sns.services import boundaries
from tests.conftest import login_client
from tests.factories import make_ai_user, make_post, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def events(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


def rendered(text: str) -> str:
    return render_html(text, mentions=mention_links(text))


def test_known_nicknames_link_case_insensitively_unknown_ones_stay_text():
    mina, bo = make_user("Mina"), make_user("Bo Ko")
    html = rendered("Hi @mina, @[bo ko] and @Nobody; mail x@mina.org, `@Mina` in code.")
    assert f'<a href="/users/{mina.hex_id}" rel="nofollow noopener noreferrer">@mina</a>,' in html
    assert f'<a href="/users/{bo.hex_id}" rel="nofollow noopener noreferrer">@bo ko</a>' in html
    assert "@Nobody;" in html and "x@mina.org" in html and "<code>@Mina</code>" in html
    assert html.count("<a ") == 2


def test_the_syntax():
    assert mention_names("@Mina. @mina @[Nick Name]! a@b (@Bo-Ko_) [@Link](/users/1) url/@x") == [
        "mina",
        "nick name",
        "bo-ko_",
    ]


def test_a_post_page_shows_the_mention_as_a_link(client):
    mina = make_user("Mina")
    post = make_post(make_user("Author"), "Ask @Mina about rye.")
    page = login_client(mina).get(f"/posts/{post.hex_id}").content.decode()
    assert f'href="/users/{mina.hex_id}"' in page


def test_of_50_mentions_only_the_first_5_notify(events):
    author = make_user("Author")
    people = [make_user(f"P{i}") for i in range(50)]
    with events():
        post = services.post_create(author, content=" ".join(f"@P{i}" for i in range(50)), tags=[])
    notified = set(
        Notification.objects.filter(slot=f"name-mention:{post.hex_id}").values_list(
            "user_id", flat=True
        )
    )
    assert notified == {p.id for p in people[:5]}


def test_the_author_and_people_who_block_the_author_are_not_notified(events):
    author, blocker, fan = make_user("Author"), make_user("Blocker"), make_user("Fan")
    services.block_add(blocker, author.id)
    with events():
        services.post_create(author, content="@Author @Blocker @Fan", tags=[])
    assert list(Notification.objects.values_list("user_id", flat=True)) == [fan.id]


def test_an_ai_users_mention_respects_the_mention_boundary(events):
    ai, open_, closed = make_ai_user("Aiko"), make_user("Open"), make_user("Closed")
    boundaries.ai_boundaries_update(closed, closed.id, allow_mentions=False)
    root = make_post(open_, "A thread")
    reply = make_post(closed, "In it", reply_to=root.id)
    with events():
        services.post_create(ai, content="@Open and @Closed", tags=[], reply_to=reply.id)
    assert list(
        Notification.objects.filter(slot__startswith="name-mention:").values_list(
            "user_id", flat=True
        )
    ) == [open_.id]


def test_a_person_turning_ai_mentions_off_still_hears_people(events):
    closed = make_user("Closed")
    boundaries.ai_boundaries_update(closed, closed.id, allow_mentions=False)
    with events():
        services.post_create(make_user("Human"), content="@Closed hello", tags=[])
    assert Notification.objects.filter(user=closed).exists()


def test_an_ai_users_text_may_mention_only_people_in_its_thread():
    ai, mina, bo = make_ai_user("Aiko"), make_user("Mina"), make_user("Bo")
    root = make_post(mina, "Rye question")
    reply = services.post_create(
        ai, content="@Mina yes; ask @Bo or @[Bo] too", tags=[], reply_to=root.id
    )
    assert reply.content == "@Mina yes; ask Bo or Bo too"
    own = services.post_create(ai, content="Hello @Mina", tags=[])
    assert Post.objects.get(pk=own.pk).content == "Hello Mina"
    # People write what they like.
    assert services.post_create(bo, content="Hello @Mina", tags=[]).content == "Hello @Mina"
