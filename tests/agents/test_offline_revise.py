"""The offline stand-in's `revise` (agents/llm/offline_revise.py): deterministic, it keeps
the draft and names and quotes the first retrieved post, in English and Japanese."""

from __future__ import annotations

import json

import pytest

from agents.llm.offline import OfflineProvider
from agents.llm.types import ChatRequest

SOURCES = {
    "en": {
        "author": "Handbook",
        "title": "Starter care",
        "content": "# Starter care\n\nKeep it warm. Feed it daily.",
    },
    "ja": {
        "author": "Handbook",
        "title": "味噌の仕込み",
        "content": "# 味噌の仕込み\n\n塩は12%が目安。寒い時期に仕込む。",
    },
}


@pytest.mark.parametrize(
    ("locale", "cited"),
    [
        ("en", 'As "Starter care" by Handbook says: "Keep it warm." [1]'),
        ("ja", "Handbookの「味噌の仕込み」によれば「塩は12%が目安。」[1]"),
    ],
)
def test_the_revision_keeps_the_draft_and_names_and_quotes_the_source(locale, cited):
    draft = (
        "My draft about it. (offline stand-in)"
        if locale == "en"
        else "下書きです。（オフライン代替）"
    )
    inputs = {
        "profile": {},
        "payload": {"draft": draft, "sources": [{"ref": 1, **SOURCES[locale]}]},
        "max_chars": 400,
    }
    request = ChatRequest(
        model="m",
        messages=[{"role": "user", "content": "x"}],
        task="revise",
        locale=locale,
        json_mode=True,
        inputs=inputs,
    )
    first = json.loads(OfflineProvider().complete(request).content)
    again = json.loads(OfflineProvider().complete(request).content)
    assert first == again
    kept = draft.split(" (")[0].split("（")[0]
    assert first["content"].startswith(kept) and cited in first["content"]
    assert (
        first["content"].count("offline stand-in") + first["content"].count("オフライン代替") == 1
    )
