"""`kept_truncatechars` (sns/web/templatetags/stgy_web.py) writes what Django's
`truncatechars` writes, for short and long texts, combining characters, markup to
escape, and in another language, whose "…" may differ."""

from __future__ import annotations

import pytest
from django.template import engines
from django.utils import translation

TEXTS = ["", "short", "x" * 40, "y" * 41, "e\u0301" * 45, "<b>&amp;</b> " * 10, "日本語のテキスト" * 8]


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("text", TEXTS)
def test_same_as_truncatechars(text, language):
    engine = engines["django"]
    kept = engine.from_string("{% load stgy_web %}{{ text|kept_truncatechars:40 }}")
    django_s = engine.from_string("{{ text|truncatechars:40 }}")
    with translation.override(language):
        for _ in range(2):  # cold, then remembered
            assert kept.render({"text": text}) == django_s.render({"text": text})
