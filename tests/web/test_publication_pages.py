"""Public sites as pages: /sites/<id>, /pub/<id>, the Atom feed, and the owner's
/publications and settings form. Anonymous readers see exactly the public posts."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import timedelta
from html.parser import HTMLParser

import pytest
from django.utils import timezone

from sns.models import PostPubView, PubConfig
from sns.services.publication import pub_config_update
from tests.factories import make_post, make_user
from tests.web.conftest import messages_of, text_of
from tests.web.field_check import field_error, field_value

pytestmark = pytest.mark.django_db
ATOM = "{http://www.w3.org/2005/Atom}"


class _Head(HTMLParser):
    """<title> and the <meta property|name=...> of a page."""

    def __init__(self):
        super().__init__()
        self.title, self.meta, self._in_title = "", {}, False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "title":
            self._in_title = True
        if tag == "meta" and (attrs.get("property") or attrs.get("name")):
            self.meta[attrs.get("property") or attrs.get("name")] = attrs.get("content")

    def handle_endtag(self, tag):
        self._in_title = self._in_title and tag != "title"

    def handle_data(self, data):
        if self._in_title:
            self.title += data


def head_of(response) -> _Head:
    parser = _Head()
    parser.feed(text_of(response))
    return parser


def _published(owner, content, ago_minutes=10, **fields):
    return make_post(owner, content, published_at=timezone.now() - timedelta(minutes=ago_minutes), **fields)


@pytest.fixture
def site(human):
    pub_config_update(
        human,
        human.id,
        {
            "siteName": "Alice's <Notes>",
            "subtitle": "Bread & databases",
            "author": "Alice A.",
            "introduction": "I write about **bread**.",
            "designTheme": "dark",
        },
    )
    return human


def test_site_front_page_is_public_and_lists_public_posts_only(page_client, site):
    first = _published(site, "# Sourdough\n\nStarter notes", ago_minutes=30)
    _published(site, "Second public post", ago_minutes=20)
    make_post(site, "PRIVATE draft")
    make_post(site, "SCHEDULED", published_at=timezone.now() + timedelta(days=1))
    response = page_client().get(f"/sites/{site.hex_id}")
    assert response.status_code == 200
    body = text_of(response)
    assert "Sourdough" in body and "Second public post" in body
    assert "PRIVATE draft" not in body and "SCHEDULED" not in body
    assert f"/pub/{first.hex_id}" in body
    assert "&lt;Notes&gt;" in body and "<Notes>" not in body  # escaped, never markup
    assert "<strong>bread</strong>" in body
    assert 'class="pub-page pub-theme-dark pub-dir-norm pub-tone-dark"' in body
    head = head_of(response)
    assert head.title == "Alice's <Notes>"
    assert head.meta["og:type"] == "website" and head.meta["og:title"] == "Alice's <Notes>"
    assert head.meta["og:url"].endswith(f"/sites/{site.hex_id}")
    assert head.meta["og:locale"] == "en-US"


def test_site_pages_plain_tab_and_oldest_first(page_client, site):
    a = _published(site, "alpha", ago_minutes=30)
    b = _published(site, "beta", ago_minutes=20)
    body = text_of(page_client().get(f"/sites/{site.hex_id}?tab=plain&oldestFirst=1"))
    assert 'class="pub-post-list"' in body
    assert body.index(f"/pub/{a.hex_id}") < body.index(f"/pub/{b.hex_id}")


def test_site_of_unknown_user_is_404_and_bad_id_400(page_client, db):
    assert page_client().get("/sites/00000000DEADBEEF").status_code == 404
    assert page_client().get("/sites/not-an-id").status_code == 400


def test_requested_design_must_be_a_known_theme(page_client, site):
    body = text_of(page_client().get(f"/sites/{site.hex_id}?design=tategaki"))
    assert "pub-theme-tategaki pub-dir-vert" in body
    body = text_of(page_client().get(f'/sites/{site.hex_id}?design="><script>'))
    assert "pub-theme-dark" in body and "<script>" not in body


def test_unknown_stored_theme_falls_back_to_default(page_client, human):
    pub_config_update(human, human.id, {"designTheme": "my-own-theme"})
    assert "pub-theme-default" in text_of(page_client().get(f"/sites/{human.hex_id}"))


def test_public_post_page_title_og_and_sidebar(page_client, site):
    older = _published(site, "An older one", ago_minutes=40)
    post = _published(site, "# Rye bread\n\nA dense *loaf* with caraway.", ago_minutes=30, tags=["bread"])
    newer = _published(site, "A newer one", ago_minutes=20)
    make_post(site, "PRIVATE aside")
    response = page_client().get(f"/pub/{post.hex_id}")
    assert response.status_code == 200
    head = head_of(response)
    assert head.title == "Alice's <Notes>: Rye bread"
    assert head.meta["og:type"] == "article" and head.meta["og:title"] == "Rye bread"
    assert head.meta["og:site_name"] == "Alice's <Notes>"
    assert head.meta["og:description"] == "A dense loaf with caraway."
    assert head.meta["author"] == "Alice A."
    assert head.meta["article:published_time"].startswith(str(post.published_at.year))
    body = text_of(response)
    assert "<em>loaf</em>" in body
    assert f"/pub/{newer.hex_id}" in body and f"/pub/{older.hex_id}" in body
    assert "PRIVATE aside" not in body
    assert 'lang="en-US"' in body


def test_post_without_heading_is_named_by_its_date(page_client, human):
    post = _published(human, "just text")
    head = head_of(page_client().get(f"/pub/{post.hex_id}"))
    assert head.title == f"POST@{post.published_at:%Y-%m-%d}"


@pytest.mark.parametrize("published_at", [None, "future"])
def test_private_post_page_is_404(page_client, human, published_at):
    at = None if published_at is None else timezone.now() + timedelta(hours=2)
    post = make_post(human, "secret", published_at=at)
    response = page_client().get(f"/pub/{post.hex_id}")
    assert response.status_code == 404 and "secret" not in text_of(response)


def test_hidden_parts_follow_the_settings(page_client, human):
    pub_config_update(
        human,
        human.id,
        {"showServiceHeader": False, "showSiteName": False, "showPagenation": False, "showSideProfile": False, "showSideRecent": 0, "showSidePopular": 0},
    )
    _published(human, "other post", ago_minutes=30)
    post = _published(human, "the post")
    body = text_of(page_client().get(f"/pub/{post.hex_id}"))
    for css in ("pub-service-header", "pub-site-name-region", "pub-pager", "pub-sidebar"):
        assert css not in body, css


def test_reading_a_post_counts_one_view_per_reader(page_client, human):
    post = _published(human, "counted")
    client = page_client()
    client.get(f"/pub/{post.hex_id}", REMOTE_ADDR="203.0.113.5")
    client.get(f"/pub/{post.hex_id}", REMOTE_ADDR="203.0.113.5")
    client.get(f"/pub/{post.hex_id}", REMOTE_ADDR="203.0.113.6")
    client.get(f"/pub/{post.hex_id}", REMOTE_ADDR="203.0.113.7", HTTP_USER_AGENT="Googlebot/2.1")
    assert PostPubView.objects.get(post=post).count == 2


def test_popular_sidebar_lists_ranked_public_posts(page_client, human):
    popular = _published(human, "# Most read", ago_minutes=30)
    post = _published(human, "reading this")
    PostPubView.objects.create(post=popular, owner=human, day=timezone.now().date(), count=9)
    body = text_of(page_client().get(f"/pub/{post.hex_id}"))
    assert "Popular entries" in body and "Most read" in body


def test_feed_is_public_atom_of_public_posts(page_client, site):
    post = _published(site, "# Rye\n\nbody text", tags=["bread"])
    make_post(site, "PRIVATE in feed")
    response = page_client().get(f"/sites/{site.hex_id}/feed")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/atom+xml")
    root = ET.fromstring(response.content)
    assert root.tag == f"{ATOM}feed"
    assert root.find(f"{ATOM}title").text == "Alice's <Notes>"
    entries = root.findall(f"{ATOM}entry")
    assert len(entries) == 1
    entry = entries[0]
    assert entry.find(f"{ATOM}title").text == "Rye"
    assert entry.find(f"{ATOM}link").get("href").endswith(f"/pub/{post.hex_id}")
    assert entry.find(f"{ATOM}category").get("term") == "bread"
    assert root.find(f"{ATOM}author/{ATOM}name").text == "Alice A."
    assert "PRIVATE" not in response.content.decode()


def test_feed_of_unknown_user_is_404(page_client, db):
    assert page_client().get("/sites/00000000DEADBEEF/feed").status_code == 404


def test_site_links_its_feed(page_client, site):
    body = text_of(page_client().get(f"/sites/{site.hex_id}"))
    assert f'type="application/atom+xml" title="Alice&#x27;s &lt;Notes&gt;" href="/sites/{site.hex_id}/feed"' in body


def test_publications_page_needs_login_and_shows_stats(page_client, human):
    assert page_client().get("/publications").status_code == 302
    post = _published(human, "viewed post")
    PostPubView.objects.create(post=post, owner=human, day=timezone.now().date(), count=4)
    response = page_client(human).get("/publications")
    assert response.status_code == 200
    body = text_of(response)
    assert 'data-testid="pub-total">4<' in body and "viewed post" in body


def _form(**overrides):
    data = {
        "site_name": "Web Site",
        "subtitle": "sub",
        "author": "me",
        "introduction": "hello",
        "design_theme": "newspaper",
        "show_service_header": "on",
        "show_side_recent": "3",
        "show_side_popular": "0",
    }
    data.update(overrides)
    return data


def test_settings_form_saves_the_config(page_client, human):
    client = page_client(human)
    assert 'data-testid="pub-config"' in text_of(client.get("/settings"))
    response = client.post("/publications/update", {**_form(), "from": "settings"}, follow=True)
    assert response.redirect_chain[-1][0] == "/settings"
    assert "Public site settings saved." in messages_of(response)
    config = PubConfig.objects.get(user=human)
    assert (config.site_name, config.design_theme, config.show_side_recent) == ("Web Site", "newspaper", 3)
    assert config.show_service_header and not config.show_site_name
    client.post("/publications/update", _form(design_theme="default"))
    assert PubConfig.objects.get(user=human).design_theme == ""


def test_settings_form_refusal_keeps_the_row(page_client, human):
    client = page_client(human)
    response = client.post("/publications/update", _form(site_name="x" * 51), follow=True)
    assert field_error(response, "site_name") == "Site name is too long"
    assert field_value(response, "site_name") == "x" * 51
    assert not PubConfig.objects.filter(user=human).exists()


def test_frozen_user_cannot_save(page_client, db):
    frozen = make_user("Ice", is_frozen=True)
    response = page_client(frozen).post("/publications/update", _form(), follow=True)
    assert "user is frozen" in messages_of(response)
    assert not PubConfig.objects.filter(user=frozen).exists()


def test_public_pages_skip_the_agreement_redirect(page_client, human, admin):
    from sns.services import agreements

    agreements.agreement_term_put(admin, 0x20, [{"locale": "en", "text": "Be kind."}])
    post = _published(human, "still readable")
    client = page_client(human)
    assert client.get("/").status_code == 302  # logged-in pages ask for the terms first
    assert client.get(f"/pub/{post.hex_id}").status_code == 200
    assert client.get(f"/sites/{human.hex_id}").status_code == 200


def test_compose_and_edit_publish_a_post(page_client, human):
    client = page_client(human)
    client.post("/compose", {"content": "made public", "tags": "", "locale": "en-US", "publish": "on"})
    client.post("/compose", {"content": "kept private", "tags": "", "locale": "en-US"})
    public = text_of(page_client().get(f"/sites/{human.hex_id}"))
    assert "made public" in public and "kept private" not in public
    from sns.models import Post

    post = Post.objects.get(content="made public")
    first_time = post.published_at
    detail = text_of(client.get(f"/posts/{post.hex_id}"))
    assert 'data-testid="public-page"' in detail
    edit = {"content": "made public, edited", "tags": "", "locale": "en-US", "publish": "on"}
    client.post(f"/posts/{post.hex_id}/edit", edit)
    post.refresh_from_db()
    assert post.published_at == first_time  # staying public keeps the original time
    client.post(f"/posts/{post.hex_id}/edit", {**edit, "publish": ""})
    post.refresh_from_db()
    assert post.published_at is None
    assert page_client().get(f"/pub/{post.hex_id}").status_code == 404


XSS = '<script>alert(1)</script> <img src=x onerror=alert(1)> [x](javascript:alert(1)) "quoted"'


def _tags_of(body: str) -> list[tuple[str, list]]:
    found = []

    class Collect(HTMLParser):
        def handle_starttag(self, tag, attrs):
            found.append((tag, attrs))

    Collect().feed(body)
    return found


def test_user_text_on_public_pages_is_escaped_or_sanitised(page_client, db):
    evil = make_user("<b>Eve</b>")
    pub_config_update(
        evil,
        evil.id,
        {"siteName": '"><script>x</script>', "subtitle": XSS[:50], "author": '"><b>', "introduction": XSS},
    )
    post = _published(evil, "# " + XSS + "\n\n" + XSS, tags=['<script>"tag"'])
    for path in (f"/sites/{evil.hex_id}", f"/sites/{evil.hex_id}?tab=plain", f"/pub/{post.hex_id}"):
        body = text_of(page_client().get(path))
        assert "<script>" not in body, path
        tags = _tags_of(body)
        assert not [a for _t, attrs in tags for a, _v in attrs if a.startswith("on")], path
        assert not [v for _t, attrs in tags for a, v in attrs if a == "href" and "javascript:" in (v or "")], path
        assert "script" not in {t for t, _a in tags}, path
        assert "<b>" not in body, path
    feed = page_client().get(f"/sites/{evil.hex_id}/feed")
    root = ET.fromstring(feed.content)  # still well-formed XML
    summary = root.find(f"{ATOM}entry/{ATOM}summary").text
    tags = _tags_of(summary)  # the entry's HTML, once the XML escaping is undone
    assert tags and "script" not in {t for t, _a in tags}
    assert not [a for _t, attrs in tags for a, v in attrs if a.startswith("on") or "javascript:" in (v or "")]


def test_public_pages_cost_the_same_queries_for_more_posts(page_client, page_queries, human):
    def counts():
        latest = _published(human, f"# Post {len(counts.made)}\n\ntext", ago_minutes=1)
        counts.made.append(latest)
        PostPubView.objects.get_or_create(post=latest, owner=human, day=timezone.now().date(), defaults={"count": 1})
        client = page_client()
        return (
            len(page_queries(client, f"/sites/{human.hex_id}")),
            len(page_queries(client, f"/sites/{human.hex_id}/feed")),
            len(page_queries(page_client(), f"/pub/{latest.hex_id}", REMOTE_ADDR=f"198.51.100.{len(counts.made)}")),
        )

    counts.made = []
    for i in range(3):
        _published(human, f"older {i}", ago_minutes=60 + i)
    counts()  # the first counted view of the day also purges old counts (one DELETE)
    few = counts()
    for i in range(12):
        _published(human, f"more {i}", ago_minutes=30 + i)
    assert counts() == few
