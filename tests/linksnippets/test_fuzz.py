"""The schema fuzzer of tests/sns/test_api_fuzz.py aimed at POST /link-snippets/resolve
alone, with many more cases: no 5xx, every answer as the OpenAPI document declares it.
Generated hosts do not resolve here, so nothing leaves the machine."""

from __future__ import annotations

import collections

import pytest
import schemathesis
from schemathesis import GenerationMode

from stgy.wsgi import application
from tests.factories import make_user
from tests.sns import test_api_fuzz as fuzz
from tests.sns.test_api_fuzz import wsgi_connections  # noqa: F401 - a fixture

pytestmark = pytest.mark.django_db(transaction=True)


def test_fuzzing_link_snippets_resolve(monkeypatch, wsgi_connections):  # noqa: F811
    monkeypatch.setattr(fuzz, "EXAMPLES_PER_STRATEGY", 150)
    # Cases of its own: the whole-API fuzz keeps what it drew per operation for its second role.
    monkeypatch.setattr(fuzz, "_DRAWN", {})
    schema = schemathesis.openapi.from_wsgi("/api/openapi.yml", application)
    operation = schema["/api/link-snippets/resolve"]["POST"]
    figures, problems = collections.Counter(), {}
    actor = make_user("Fuzzer")
    session = fuzz.ActorSession(actor.pk)
    for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
        fuzz._run_variant(operation, (str(mode), mode, {}), session, figures, problems, rejected={})
    print("\nlink-snippets fuzz:", dict(figures))
    assert figures["requests"] >= 200
    assert figures["authenticated requests"] == figures["requests"]
    assert (figures["5xx"], figures["violations"]) == (0, 0), problems
