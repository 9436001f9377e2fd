import pytest

from agents.tags import (
    clean_tags_for_storage,
    normalize_interest_tags,
    normalize_keyword,
    normalize_tag_list,
    parse_keywords,
    parse_tags_field,
)


@pytest.mark.parametrize(
    ("raw", "max_count", "expected"),
    [
        (["007.63:ソフトウェア", "推薦システム", "PostgreSQL"], 5, ["ソフトウェア", "推薦システム", "PostgreSQL"]),
        (["500:技術．工学", "工学", "橋梁"], 5, ["工学", "橋梁"]),
        (["500:Technology. Engineering", "bridges"], 5, ["Technology", "Engineering", "bridges"]),
        (["500:Technology.Engineering", "bridges"], 5, ["Technology.Engineering", "bridges"]),
        (["336:Business. Management", "Management", "Accounting"], 5, ["Management", "Accounting"]),
        (["Foo", "foo", " FOO "], 5, ["Foo"]),
        (["12:abc", "100:", "  ", "x", 3, None], 5, ["12:abc", "x"]),
        (
            ["007:Information science", "information science", "007: Information Science"],
            5,
            ["Information science"],
        ),
        (["a", "b", "c", "d", "e", "f"], 3, ["a", "b", "c"]),
        ("notarray", 5, []),
    ],
)
def test_parse_tags_field_spec_table(raw, max_count, expected):
    assert parse_tags_field(raw, max_count) == expected


def test_parse_tags_field_other_inputs():
    assert parse_tags_field(None, 5) == []
    assert parse_tags_field({"a": "b"}, 5) == []
    # Known-part matching is case-sensitive; an unmatched NDC label contributes all parts.
    assert parse_tags_field(["500:Technology. Engineering", "engineering"], 5) == [
        "Technology",
        "Engineering",
    ]
    # Four digits are not an NDC code.
    assert parse_tags_field(["1234:abc"], 5) == ["1234:abc"]


def test_clean_tags_for_storage():
    long = "x" * 60
    tags = ["  rust  lang ", "Rust lang", "", "   ", long, "ok", 3]
    assert clean_tags_for_storage(tags) == ["rust lang", "x" * 50, "ok"]


def test_clean_tags_for_storage_limits_count_and_trims_after_cut():
    assert clean_tags_for_storage(["a", "b", "c"], max_count=2) == ["a", "b"]
    assert clean_tags_for_storage(["abc def"], max_len=4) == ["abc"]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("  PostgreSQL  ", "postgresql"),
        ("Machine \t\n Learning", "machine learning"),
        ("Cafe\u0301", "caf\u00e9"),
        ("   ", ""),
    ],
)
def test_normalize_keyword(raw, expected):
    assert normalize_keyword(raw) == expected


def test_normalize_tag_list_dedups_after_normalising():
    assert normalize_tag_list(["Rust", " rust ", "", "Web  Dev", "web dev"]) == ["rust", "web dev"]


def test_normalize_tag_list_rejects_non_strings():
    with pytest.raises(ValueError):
        normalize_tag_list(["ok", 3])


def test_normalize_interest_tags():
    items = [" Rust ", "rust", "", 7, "A  B", "😀" * 30, "c", "d", "e"]
    out = normalize_interest_tags(items)
    # No whitespace folding here (that is the spec), emoji cut at 50 UTF-16 units = 25 emoji.
    assert out == ["rust", "a  b", "😀" * 25, "c", "d"]


def test_parse_keywords():
    raw = ["Index", "index ", 5, "", "PostgreSQL", "Query  Planner", "ソフトウェア"]
    assert parse_keywords(raw, ["PostgreSQL", "ソフトウェア"]) == ["index", "query planner"]


def test_parse_keywords_stops_at_max_and_rejects_non_list():
    raw = [f"k{i}" for i in range(15)]
    assert parse_keywords(raw, []) == [f"k{i}" for i in range(10)]
    assert parse_keywords("k1", []) == []
