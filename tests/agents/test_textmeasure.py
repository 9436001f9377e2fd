import pytest

from agents.textmeasure import count_pt, len16, slice_pt, truncate_pt


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("abc", 3),
        ("日本語", 6),
        ("a…", 3),
        ("😀", 2),
        ("é", 1),
        ("—", 2),
        ("ｱ", 2),
        ("\u1fff", 1),
        ("\u2000", 2),
        ("", 0),
    ],
)
def test_count_pt(text, expected):
    assert count_pt(text) == expected


@pytest.mark.parametrize(
    ("text", "start", "end", "expected"),
    [
        ("日本語abc", 0, 3, "日本"),
        ("日本語abc", 0, 4, "日本"),
        ("abc日本", 0, 4, "abc日"),
        ("abcdef", 2, 4, "cd"),
        ("日本語", 1, 3, "日本"),
        ("abc", 0, 10, "abc"),
        ("abc", 3, 3, ""),
        ("abc", 3, 1, ""),
        ("abc", 5, 9, ""),
    ],
)
def test_slice_pt(text, start, end, expected):
    assert slice_pt(text, start, end) == expected


def test_truncate_pt_keeps_text_within_limit():
    assert truncate_pt("abc", 3) == "abc"
    assert truncate_pt("日本語", 6) == "日本語"


def test_truncate_pt_cuts_and_marks():
    assert truncate_pt("abcdef", 3) == "abc\u2026"
    # A wide character straddling the limit is kept whole.
    assert truncate_pt("ab日本", 3) == "ab日\u2026"


@pytest.mark.parametrize(
    ("text", "expected"), [("abc", 3), ("日本", 2), ("😀", 2), ("a😀b", 4), ("", 0)]
)
def test_len16_counts_utf16_units(text, expected):
    assert len16(text) == expected


def test_count_pt_matches_the_per_code_point_rule_around_every_boundary():
    import random

    from agents.textmeasure import count_pt

    edges = [0x20, 0x7E, 0x7F, 0x80, 0x1FFF, 0x2000, 0x206F, 0x3042, 0xD7FF, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF]
    rng = random.Random(5)
    for _ in range(2000):
        text = "".join(chr(rng.choice(edges)) for _ in range(rng.randint(0, 30)))
        assert count_pt(text) == sum(1 if ord(ch) < 0x2000 else 2 for ch in text)


def _slice_walked(text: str, start: int, end: int) -> str:
    """slice_pt as the rule reads, one character at a time (docs/summaries-and-vectors.md §3)."""
    if end <= start:
        return ""
    total, begin = 0, None
    for index, ch in enumerate(text):
        weight = 1 if ord(ch) < 0x2000 else 2
        if begin is None and total + weight > start:
            begin = index
        if begin is not None and total + weight >= end:
            return text[begin : index + 1]
        total += weight
    return "" if begin is None else text[begin:]


def test_slice_pt_of_ascii_starts_and_mixed_texts_follows_the_walked_rule():
    texts = ["", "abc", "abcdefgh", "abc日本語", "日本語abc", "ab😀cd", "x" * 50 + "日", "é" * 8 + "abc"]
    for text in texts:
        for start in range(0, 12):
            for end in range(0, 14):
                assert slice_pt(text, start, end) == _slice_walked(text, start, end), (text, start, end)
