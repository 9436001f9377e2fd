"""The API's renderer (sns/api/renderers.py) gives DRF's JSONRenderer's bytes exactly."""

from __future__ import annotations

import datetime
import decimal
import random
import uuid

import pytest
from django.utils.functional import lazy
from rest_framework.renderers import JSONRenderer
from rest_framework.utils.serializer_helpers import ReturnDict

from sns.api.renderers import FastJSONRenderer


def _every_kind_of_text() -> list[str]:
    rng = random.Random(5)
    singles = [chr(c) for c in range(0, 0x800)] + ["\u2028", "\u2029", "\ufeff", "\U0001f600", "\x7f", '"', "\\", "/"]
    # Their neighbours, which share the separators' first two UTF-8 bytes.
    singles += ["\u2026", "\u2014", "\u201c", "\u2027", "\u202a", "\u2000", "\u203f", "\u20ac", "\u3042"]
    mixed = ["".join(rng.choice(singles) for _ in range(rng.randint(0, 40))) for _ in range(300)]
    mixed += ["\u2026" * 5 + "\u2028", "\u2014\u2029\u2026", "…" * 50 + "x\u2029"]
    return singles + mixed


PAYLOADS = [
    None,
    [],
    {},
    {"a": 1, "b": True, "c": None, "d": "x", "e": [1, 2, {"f": False}]},
    [{"id": "00000000000000FF", "tags": ["a", "b"], "countLikes": 2**62}],
    {"float": 0.1, "big": 1e16, "small": 1e-5, "whole": 3.0},
    [1, [2, [3.5]]],
    {"when": datetime.datetime(2024, 1, 2, 3, 4, 5, 678901, tzinfo=datetime.timezone.utc)},
    {"money": decimal.Decimal("1.10")},
    {"id": uuid.UUID(int=5)},
    {"lazy": lazy(lambda: "text", str)()},
    {"huge": 2**70},
    ReturnDict({"a": 1}, serializer=None),
    ("tuple", 1),
    {1: "non-string key"},
]


@pytest.mark.parametrize("data", PAYLOADS, ids=range(len(PAYLOADS)))
def test_same_bytes_as_drf(data):
    assert FastJSONRenderer().render(data) == JSONRenderer().render(data)


def test_same_bytes_for_every_kind_of_text():
    texts = _every_kind_of_text()
    for text in texts:
        data = {"content": text, text: [text]}
        assert FastJSONRenderer().render(data) == JSONRenderer().render(data), repr(text)


def test_an_asked_for_indent_is_drfs():
    data = {"a": [1, 2]}
    media = "application/json; indent=2"
    assert FastJSONRenderer().render(data, media) == JSONRenderer().render(data, media)
