"""Schema-driven fuzzing of the whole API (schemathesis) against the real WSGI app and
database: no answer may be a 5xx, and every answer must be one the OpenAPI document
declares for that operation, in the shape it declares.

Runs as an ordinary user and as an admin. Each role keeps one session across its cases
and logs in again only when a case ended it (the fuzzer logs itself out, changes
passwords, switches user...): after every case the session is resolved by the server's
own code (sns/auth/session.py), so no case goes out anonymous unnoticed, and the run
asserts that every request was sent authenticated. Every operation is fuzzed with
generated ids and, where its path names a resource, with ids of real rows, so the rules
and the database are reached, not only the id parser. Generation is derandomized: the
same cases every run (as long as the test's code is unchanged: Hypothesis seeds from
it), so CI is stable. Figures are printed for the run record (-s).
"""

from __future__ import annotations

import collections
import functools
import time
from importlib import import_module
from types import SimpleNamespace

import pytest
import schemathesis
from django.conf import settings as django_settings
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import Client
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as hypothesis_settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from agents import memory
from agents.memory_versions import API
from sns import services
from sns.auth.session import session_user
from sns.models import User
from stgy.wsgi import application
from tests.factories import make_ai_user, make_post, make_user

pytestmark = pytest.mark.django_db(transaction=True)

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
EXAMPLES_PER_STRATEGY = 15


@pytest.fixture
def wsgi_connections():
    """The app runs in-process on the test's database connection, which Django would
    close at the end of every request as a server's; Django's test client disconnects
    the same two signals."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def _resolves_to(session_key: str, user_id: int) -> bool:
    """Whether a request carrying this session would be served as the user, decided by
    the code the server runs on every request (a stale hash flushes the session there
    and here alike)."""
    store = import_module(django_settings.SESSION_ENGINE).SessionStore(session_key)
    user = session_user(SimpleNamespace(session=store))
    return user.is_authenticated and user.pk == user_id


class ActorSession:
    """The actor's session cookie, kept across cases and made again only when the
    previous case ended it; logging in afresh for every case was a third of the run."""

    def __init__(self, actor_id: int):
        self.actor_id = actor_id
        self.key: str | None = None
        self.logins = 0

    def cookies(self) -> tuple[dict, bool]:
        """The cookie to send and whether it resolves to the actor now; a new login when
        the kept one no longer does (the row is read again: the fuzzer may have changed
        its password)."""
        if self.key is None or not _resolves_to(self.key, self.actor_id):
            actor = User.objects.filter(pk=self.actor_id).first()
            if actor is None:
                return {}, False
            client = Client()
            client.force_login(actor)
            self.key = client.cookies["session_id"].value
            self.logins += 1
            if not _resolves_to(self.key, self.actor_id):
                return {"session_id": self.key}, False
        return {"session_id": self.key}, True


def _world(actor):
    """Rows the fixed-id cases point at: another person, an AI user with memory, posts."""
    other = make_user("Target")
    ai = make_ai_user("Fuzzbot")
    own = make_post(actor, "my post #fuzz", tags=["fuzz"])
    theirs = make_post(other, "their post", tags=["other"])
    make_post(ai, "a reply", reply_to=theirs.id)
    services.follow_add(actor, other.id)
    services.like_add(actor, theirs.id)
    memory.peer_impression_save(ai, peer_id=other.id, payload="kind and curious", source=API)
    memory.post_impression_save(ai, post_id=theirs.id, payload="a fine post", source=API)
    return {"other": other, "ai": ai, "own_post": own, "their_post": theirs}


def _fixed_ids(path: str, world) -> dict:
    """The AI user and what it remembers for its memory routes; elsewhere another
    person and the actor's own post (which the actor may edit and delete)."""
    memory_route = path.startswith("/api/ai-users/")
    return {
        "user_id": (world["ai"] if memory_route else world["other"]).hex_id,
        "peer_id": world["other"].hex_id,
        "post_id": (world["their_post"] if memory_route else world["own_post"]).hex_id,
        "label": "balanced",
    }


def _variants(operation, world):
    """(label, generation mode, path parameters held fixed) of each batch of cases."""
    yield str(GenerationMode.POSITIVE), GenerationMode.POSITIVE, {}
    yield str(GenerationMode.NEGATIVE), GenerationMode.NEGATIVE, {}
    names = {p.name for p in operation.path_parameters}
    if names:
        fixed = {k: v for k, v in _fixed_ids(operation.path, world).items() if k in names}
        yield "fixed ids", GenerationMode.POSITIVE, fixed


# (operation, variant) → the cases drawn for the first role. Generation does not depend on
# who sends them (derandomized, no shrinking), so the second role is sent the same cases,
# its own ids put in the fixed path parameters, instead of drawing them again: drawing
# was most of the run once sessions were kept.
_DRAWN: dict[tuple, list] = {}


def _draw(operation, mode, fixed, send) -> list:
    """Draw `EXAMPLES_PER_STRATEGY` cases, sending each as it is drawn; the cases."""
    if fixed:
        strategy = operation.as_strategy(mode, path_parameters=fixed)
    else:
        strategy = operation.as_strategy(mode)
    drawn = []

    @given(case=strategy)
    @hypothesis_settings(
        max_examples=EXAMPLES_PER_STRATEGY,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    def run(case):
        drawn.append(case)
        send(case)

    run()
    return drawn


# What a browser sends with every unsafe request (the API refuses a session's bodiless
# write without it or JSON, sns/api/authentication.py); the app is served as localhost.
BROWSER_HEADERS = {"Origin": "http://localhost"}


def _run_variant(operation, variant, session: ActorSession, figures, problems, rejected) -> None:
    """Send the variant's cases (drawn now, or as drawn for the other role); count answers
    and violations, and note the operations that refused a schema-valid case as bad input
    (400): a place where the schema allows what the operation does not."""
    label, mode, fixed = variant
    key = (operation.label, label)

    def send(case):
        cookies, authenticated = session.cookies()
        response = case.call(cookies=cookies, headers=BROWSER_HEADERS)
        figures["requests"] += 1
        figures["authenticated requests"] += authenticated
        figures[f"status {response.status_code}"] += 1
        if response.status_code >= 500:
            figures["5xx"] += 1
        if mode is GenerationMode.POSITIVE and not fixed and response.status_code == 400:
            rejected.setdefault(operation.label, response.text[:200])
        try:
            case.validate_response(response, checks=CHECKS)
        except BaseExceptionGroup as group:
            figures["violations"] += 1
            for failure in group.exceptions:
                title = str(failure).splitlines()[0]
                problems.setdefault((*key, title), str(group)[:1500])

    if key not in _DRAWN:
        _DRAWN[key] = _draw(operation, mode, fixed, send)
        return
    for case in _DRAWN[key]:
        if fixed:
            case.path_parameters = {**case.path_parameters, **fixed}
        send(case)


@functools.cache
def _operations() -> tuple:
    """The API's operations, from the document the app serves; loaded once for both roles."""
    schema = schemathesis.openapi.from_wsgi("/api/openapi.yml", application)
    return tuple(result.ok() for result in schema.get_all_operations())


def _fuzz(actor, world):
    figures = collections.Counter()
    problems: dict[tuple, str] = {}
    rejected: dict[str, str] = {}
    session = ActorSession(actor.pk)
    for operation in _operations():
        figures["operations"] += 1
        for variant in _variants(operation, world):
            _run_variant(operation, variant, session, figures, problems, rejected)
    figures["logins"] = session.logins
    return figures, problems, rejected


@pytest.mark.parametrize("role", ["user", "admin"])
def test_fuzzing_the_schema_finds_no_server_error_and_no_schema_violation(
    role, settings, wsgi_connections
):
    # The offline stand-in keeps the AI routes live (no 501) without any network; the
    # hourly write limits would otherwise answer most writes 403 before their rules run.
    settings.STGY_AI_PROVIDER = "offline"
    for name in ("POSTS", "LIKES", "USER_UPDATES", "REPOSTS", "BOOKMARKS"):
        setattr(settings, f"STGY_HOURLY_{name}_COUNT_LIMIT", 1_000_000)
    settings.STGY_HOURLY_POSTS_SIZE_LIMIT = settings.STGY_HOURLY_USER_UPDATES_SIZE_LIMIT = 10**12
    actor = make_user("Fuzzer", is_admin=role == "admin")
    world = _world(actor)
    started = time.monotonic()
    figures, problems, rejected = _fuzz(actor, world)
    print(
        f"\nschemathesis as {role}: {figures['operations']} operations, "
        f"{figures['requests']} requests ({figures['authenticated requests']} sent authenticated, "
        f"{figures['logins']} logins), {figures['5xx']} server errors (5xx), "
        f"{figures['violations']} responses violating the schema, "
        f"{time.monotonic() - started:.0f} s"
    )
    statuses = sorted((k[7:], v) for k, v in figures.items() if k.startswith("status "))
    print("  by status:", ", ".join(f"{code}: {count}" for code, count in statuses))
    print(f"  operations answering 400 to a schema-valid case: {len(rejected)}")
    for label, body in sorted(rejected.items()):
        print(f"    {label}: {body}")
    for (label, mode, title), detail in sorted(problems.items()):
        print(f"--- {label} [{mode}]: {title}\n{detail}\n")
    assert figures["operations"] >= 50
    assert figures["requests"] >= figures["operations"] * 2 * EXAMPLES_PER_STRATEGY // 2
    # Every case goes out as the actor: a session the fuzzer ended is never reused.
    assert figures["authenticated requests"] == figures["requests"]
    assert (figures["5xx"], figures["violations"]) == (0, 0), sorted(problems)
