"""Content, tag and locale normalisation (sns/core/text.py) and their effect through the API."""

import pytest

from sns.core.errors import InvalidInput
from sns.core.text import (
    normalize_content,
    normalize_locale,
    normalize_post_tags,
    normalize_timezone,
)
from tests.conftest import login_client

pytestmark = pytest.mark.django_db


def test_content_normalisation():
    decomposed = "Cafe\u0301"
    assert normalize_content(decomposed) == "Caf\u00e9"
    assert normalize_content("a  \r\nb\t\rc\n\n\n") == "a\nb\nc"
    assert normalize_content("  indented\nkept  ") == "  indented\nkept  "
    with pytest.raises(InvalidInput, match="content is required"):
        normalize_content(" \r\n ")
    with pytest.raises(InvalidInput, match="content is required"):
        normalize_content(42)


def test_tag_normalisation():
    tags = ["  Big   Data ", "big data", "BIG\tDATA", "Cafe\u0301", 7, None, "", "x" * 60]
    assert normalize_post_tags(tags, 5) == ["big data", "caf\u00e9", "x" * 50]
    with pytest.raises(InvalidInput, match="tags are too many"):
        normalize_post_tags(["a", "b", "c"], 2)
    with pytest.raises(InvalidInput, match="tags is required and must be array"):
        normalize_post_tags("a,b", 5)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("en_us", "en-US"), ("EN-us", "en-US"), ("ja", "ja"), ("zh_Hant_tw", "zh-Hant-TW"), ("es-419", "es-419")],
)
def test_locale_normalisation(raw, expected):
    assert normalize_locale(raw) == expected


@pytest.mark.parametrize("raw", ["", "-", "e", "english!", "en--US", 5])
def test_invalid_locale(raw):
    with pytest.raises(InvalidInput, match="locale is invalid"):
        normalize_locale(raw)


def test_timezone():
    assert normalize_timezone(" Asia/Tokyo ") == "Asia/Tokyo"
    with pytest.raises(InvalidInput):
        normalize_timezone("Nowhere/City")


def test_api_stores_normalised_post(human):
    body = {"content": "Cafe\u0301  \r\nline\n\n", "tags": [" Food ", "FOOD", "Travel"], "locale": "fr_fr"}
    data = login_client(human).post("/api/posts", body, format="json").json()
    assert data["content"] == "Caf\u00e9\nline"
    assert data["tags"] == ["food", "travel"]
    assert data["locale"] == "fr-FR"
