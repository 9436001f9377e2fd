"""sns.mdtree against the original's own output: tests/sns/data/mdtree_golden.json holds
inputs and what the original's packages/markdown made of them with the backend's
snippet parameters (maxLen 300, maxHeight 10, image 75/2.5, cut on a rule)."""

import json
from pathlib import Path

import pytest

from sns.mdtree import deserialize, make_snippet, serialize, snippet_text

_GOLDEN = json.loads((Path(__file__).parent / "data" / "mdtree_golden.json").read_text(encoding="utf-8"))
_CASES = _GOLDEN["cases"]


@pytest.mark.parametrize("case", _CASES, ids=[c["name"] for c in _CASES])
def test_snippet_is_what_the_original_makes(case):
    assert make_snippet(case["markdown"]) == case["snippet"]


@pytest.mark.parametrize("case", _CASES, ids=[c["name"] for c in _CASES])
def test_snippet_text_is_what_the_original_renders(case):
    assert snippet_text(case["snippet"]) == case["text"]


@pytest.mark.parametrize("case", _CASES, ids=[c["name"] for c in _CASES])
def test_stored_form_survives_a_round_trip(case):
    assert serialize(deserialize(case["snippet"])) == case["snippet"]


def test_golden_covers_the_card_rules():
    # The cases that cards depend on are present (a guard against trimming the file).
    names = {c["name"] for c in _CASES}
    assert {"headings", "list nested", "code fence", "image featured first", "long english cut",
            "long japanese cut", "many lines cut", "hr cuts after text"} <= names
