"""The interface's language (sns/web/language.py): Settings offers a list of languages,
and a member who chose Japanese (`ja-JP`) reads the main pages in Japanese — the
catalogue locale/ja/LC_MESSAGES/django.mo, committed; English for anyone else."""

from __future__ import annotations

import pytest

from sns.models import User
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db


def _html(response) -> str:
    assert response.status_code == 200
    return response.content.decode()


def test_settings_offer_a_list_and_japanese_translates_the_interface(page_client):
    maya = make_user("Maya", locale="en-US", timezone="UTC")
    post = make_post(make_user("Kai"), "hello")
    client = page_client(maya)
    page = _html(client.get("/settings"))
    assert '<select name="locale"' in page and '<option value="ja-JP">日本語</option>' in page
    response = client.post(
        "/settings", {"nickname": "Maya", "introduction": "", "locale": "ja-JP", "timezone": "UTC"}
    )
    assert response.status_code == 302
    assert User.objects.get(pk=maya.id).locale == "ja-JP"
    home = _html(client.get("/?tab=everyone"))
    for words in ("ホーム", "みんな", "フォロー中", "設定", "ログアウト", "誰の投稿か"):
        assert words in home, words
    assert client.get("/").headers["Content-Language"] == "ja"
    detail = _html(client.get(f"/posts/{post.hex_id}"))
    assert "まだ返信はありません。" in detail and "返信" in detail
    assert "言語" in _html(client.get("/settings"))


def test_a_language_outside_the_list_is_refused_and_changes_nothing(page_client):
    maya = make_user("Maya", locale="en-US", timezone="UTC")
    client = page_client(maya)
    response = client.post(
        "/settings",
        {"nickname": "Maya", "introduction": "", "locale": "Japanese", "timezone": "UTC"},
        follow=True,
    )
    assert "Select a valid choice" in response.content.decode()
    assert User.objects.get(pk=maya.id).locale == "en-US"


def test_other_languages_read_english_and_a_visitor_gets_the_browsers(page_client, client):
    fr = make_user("Zoé", locale="fr-FR")
    home = _html(page_client(fr).get("/"))
    assert "Home" in home and "ホーム" not in home
    assert "ログイン" in _html(client.get("/login", HTTP_ACCEPT_LANGUAGE="ja,en;q=0.5"))
    assert "Log in" in _html(client.get("/login", HTTP_ACCEPT_LANGUAGE="en"))
    # A language set before the list (here through the API) stays selected, not lost.
    odd = make_user("Odd", locale="pt-BR")
    assert '<option value="pt-BR" selected>pt-BR</option>' in _html(
        page_client(odd).get("/settings")
    )


def _catalogue() -> dict[str, str]:
    """msgid → msgstr of locale/ja/LC_MESSAGES/django.po (strings joined across lines)."""
    import re
    from pathlib import Path

    from django.conf import settings

    text = (Path(settings.BASE_DIR) / "locale/ja/LC_MESSAGES/django.po").read_text()
    pairs = {}
    for block in text.split("\n\n"):
        found = re.search(r'^msgid ((?:".*"\n)+)msgstr ((?:".*"\n?)+)', block + "\n", re.M)
        if found:
            msgid, msgstr = ("".join(re.findall(r'"(.*)"', part)) for part in found.groups())
            if msgid:
                pairs[msgid.replace('\\"', '"')] = msgstr.replace('\\"', '"')
    return pairs


def test_the_committed_catalogue_is_compiled_and_complete():
    from django.utils import translation

    catalogue = _catalogue()
    assert len(catalogue) > 80
    with translation.override("ja"):
        for msgid, msgstr in catalogue.items():
            assert msgstr, f"untranslated: {msgid}"
            # The .mo answers what the .po says: it was compiled after the last edit.
            assert translation.gettext(msgid) == msgstr, msgid


def test_the_compose_box_and_the_cards_are_japanese_too(page_client, settings):
    maya, kai = make_user("Maya", locale="ja-JP"), make_user("Kai", locale="en-US")
    make_post(kai, "a reply", reply_to=make_post(kai, "a post").id)
    for fragments in (True, False):  # kept cards and whole ones say the same
        settings.STGY_PAGE_FRAGMENTS = fragments
        home = _html(page_client(maya).get("/?tab=everyone"))
        for words in ("タグ", "いいねを許可", "返信を許可", "投稿", "↪ 返信先：", "通報", "スレッドを開く"):
            assert words in home, (fragments, words)
        # The same cards, kept or not, in English for Kai: the kept ones key on the language.
        english = _html(page_client(kai).get("/?tab=everyone"))
        assert "↪ in reply to" in english and "返信先" not in english
