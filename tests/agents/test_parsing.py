import json

import pytest

from agents.llm.parsing import (
    ModelOutputError,
    extract_json,
    parse_interest,
    parse_new_post,
    parse_peer_impression,
    parse_peer_impressions,
    parse_post_impression,
    parse_post_impressions,
    parse_reply,
    parse_summary,
)

FENCE = "`" * 3
MULTILINE_QUOTES = '{\n  "k": "he said "hi" ok",\n  "n": 1\n}'


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ('{"a":1}', {"a": 1}),
        (f'Here you are:\n{FENCE}json\n{{"a":1}}\n{FENCE}\nHope it helps.', {"a": 1}),
        (f'{FENCE}JSON\n{{"a":1}}\n{FENCE}', {"a": 1}),
        ('Sure: {"a": {"b": 2}} ok', {"a": {"b": 2}}),
        ('{"a":1,}', {"a": 1}),
        ("[1,2,]", [1, 2]),
        (MULTILINE_QUOTES, {"k": 'he said "hi" ok', "n": 1}),
        (f'{FENCE}json\n{{"a":1}}\n{FENCE}\nand\n{FENCE}json\n{{"b":2}}\n{FENCE}', {"a": 1}),
        ('"just a string"', "just a string"),
        ("42", 42),
    ],
)
def test_extract_json_accepts(raw, expected):
    assert extract_json(raw) == expected


@pytest.mark.parametrize(
    "raw",
    [
        '{"a":[1,2,],}',
        '{"k": "he said "hi" ok"}',
        '{"a":1} and {"b":2}',
        "",
        "   ",
        '{"a": NaN}',
    ],
)
def test_extract_json_rejects(raw):
    with pytest.raises(ModelOutputError):
        extract_json(raw)


def test_extract_json_reports_the_original_error():
    with pytest.raises(ModelOutputError) as info:
        extract_json('{\n  "k": "a "b" c"\n  "n": 1\n}')
    assert isinstance(info.value.__cause__, json.JSONDecodeError)
    assert "line 2" in str(info.value)


def dump(obj) -> str:
    return json.dumps(obj, ensure_ascii=False)


def test_post_impression():
    out = parse_post_impression(
        dump(
            {
                "impression": "  Interesting take.  ",
                "tags": ["007.63:Software", "Rust", "rust", "a  b"],
                "shouldLike": True,
                "shouldReply": False,
            }
        )
    )
    assert out == {
        "impression": "Interesting take.",
        "tags": ["Software", "Rust", "a b"],
        "shouldLike": True,
        "shouldReply": False,
    }


@pytest.mark.parametrize("value", ["true", 1, "yes", None, [True]])
def test_post_impression_decisions_are_strict(value):
    raw = dump({"impression": "x", "shouldLike": value, "shouldReply": value})
    out = parse_post_impression(raw)
    assert out["shouldLike"] is False
    assert out["shouldReply"] is False
    assert out["tags"] == []


@pytest.mark.parametrize(
    "raw", ['{"impression": 3}', '{"tags": []}', '["impression"]', '"impression"', "nope"]
)
def test_post_impression_requires_string(raw):
    with pytest.raises(ModelOutputError):
        parse_post_impression(raw)


def test_impression_is_truncated():
    out = parse_post_impression(dump({"impression": "日" * 6000}))
    assert out["impression"] == "日" * 5000 + "\u2026"


def test_peer_impression():
    raw = dump({"impression": " Fun ", "tags": ["x", "y"], "shouldFollow": True})
    out = parse_peer_impression(raw)
    assert out == {"impression": "Fun", "tags": ["x", "y"], "shouldFollow": True}
    lenient = parse_peer_impression('{"impression": "", "shouldFollow": "true"}')
    assert lenient["shouldFollow"] is False
    with pytest.raises(ModelOutputError):
        parse_peer_impression('{"shouldFollow": true}')


def test_interest():
    out = parse_interest(dump({"interest": " databases ", "tags": list("abcdefg")}))
    assert out == {"interest": "databases", "tags": ["a", "b", "c", "d", "e"]}
    with pytest.raises(ModelOutputError):
        parse_interest('{"impression": "x"}')


def test_new_post_trims_and_limits_tags():
    out = parse_new_post(dump({"content": "\n# Title\n\nBody\n", "tags": ["a", "b", "c", "d"]}))
    assert out == {"content": "# Title\n\nBody", "tags": ["a", "b", "c"]}


@pytest.mark.parametrize("raw", ['{"content": "   \\n  "}', '{"content": null}', '{"text": "x"}'])
def test_new_post_rejects_blank_or_missing(raw):
    with pytest.raises(ModelOutputError):
        parse_new_post(raw)


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        ("ja", ["総記", "返信"]),
        ("ja-JP", ["総記", "返信"]),
        ("ja_JP", ["総記", "返信"]),
        ("en", ["General works", "reply"]),
        ("en-US", ["General works", "reply"]),
        ("fr", ["General", "reply"]),
        ("jav", ["General", "reply"]),
    ],
)
def test_reply_fallback_tags(locale, expected):
    out = parse_reply(dump({"content": " Thanks! ", "tags": ["only-one"]}), locale)
    assert out == {"content": "Thanks!", "tags": expected}


def test_reply_keeps_model_tags_and_cuts_to_tag_num():
    out = parse_reply(dump({"content": "ok", "tags": ["a", "b", "c", "d", "e", "f"]}), "en")
    assert out["tags"] == ["a", "b", "c"]
    out = parse_reply(dump({"content": "ok", "tags": ["a", "b"]}), "ja", tag_num=1)
    assert out["tags"] == ["a"]


def test_reply_rejects_blank_content():
    with pytest.raises(ModelOutputError):
        parse_reply('{"content": "  ", "tags": ["a", "b"]}', "en")


def test_summary():
    out = parse_summary(
        dump(
            {
                "summary": " A summary. ",
                "tags": ["007.63:Software", "PostgreSQL"],
                "keywords": ["postgresql", "Query Planner", "software", "index", 3],
            }
        )
    )
    assert out == {
        "summary": " A summary. ",
        "tags": ["Software", "PostgreSQL"],
        "keywords": ["query planner", "index"],
    }


def test_summary_defaults_and_requirements():
    assert parse_summary('{"summary": "s"}') == {"summary": "s", "tags": [], "keywords": []}
    with pytest.raises(ModelOutputError):
        parse_summary('{"summary": ["s"]}')


def test_model_output_error_is_value_error():
    assert issubclass(ModelOutputError, ValueError)


def test_impressions_of_several_posts_are_validated_item_by_item():
    text = dump({"impressions": [
        {"n": 2, "impression": " Second. ", "tags": ["007.63:Software", "db"], "shouldLike": True},
        {"n": 1, "impression": 42, "shouldLike": True},  # not a text: only item 1 fails
        {"n": 3, "impression": "Third.", "shouldReply": "yes"},
        {"n": 3, "impression": "A second answer for 3 is ignored.", "shouldReply": True},
        {"n": 9, "impression": "No such item."},
        "not an object",
    ]})
    out = parse_post_impressions(text, 4)
    assert sorted(out) == [1, 2, 3, 4]
    assert out[2] == {"impression": "Second.", "tags": ["Software", "db"], "shouldLike": True, "shouldReply": False}
    assert out[3]["impression"] == "Third." and out[3]["shouldReply"] is False  # only literal true is yes
    assert isinstance(out[1], str) and "item 1" in out[1]
    assert isinstance(out[4], str) and "no answer for item 4" in out[4]


def test_impressions_without_numbers_follow_the_items_order():
    text = '```json\n{"impressions": [{"impression": "A.", "shouldFollow": true}, {"impression": "B."}]}\n```'
    out = parse_peer_impressions(text, 2)
    assert out[1]["impression"] == "A." and out[1]["shouldFollow"] is True
    assert out[2]["impression"] == "B." and out[2]["shouldFollow"] is False


@pytest.mark.parametrize("text", ['{"impression": "one object"}', "[]", "no json", '{"impressions": {}}'])
def test_impressions_of_several_items_need_the_list(text):
    with pytest.raises(ModelOutputError):
        parse_post_impressions(text, 2)
