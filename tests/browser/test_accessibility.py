"""Every page type through an accessibility engine (axe-core, injected into the page)
at desktop and phone width, in the light and the dark theme: no violation of WCAG 2.2
A/AA of serious or critical impact. The figures per page type are written to
artifacts/accessibility.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.conf import settings

from agents.cycle.run import run_cycle_sync
from sns import services
from sns.services import messages
from tests.browser.conftest import DESKTOP, PHONE
from tests.factories import make_ai_user, make_post, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
BLOCKING = ("serious", "critical")


def community():
    mina = make_user("Mina")
    admin = make_user("Root", is_admin=True)
    aiko = make_ai_user("Aiko", tier="balanced", personality="A cheerful baker who loves rye sourdough.")
    services.follow_add(mina, aiko.id)
    services.follow_add(aiko, mina.id)
    root = make_post(aiko, "## Rye day\n\nMy rye sourdough starter finally doubled overnight.\n\n"
                          "@[The bakery](map://139.7671,35.6812,16|139.768,35.682;Oven)", tags=["bread"])
    reply = services.post_create(mina, content="How warm do you keep it?", tags=[], reply_to=root.id)
    make_post(mina, "Baking notes: *hydration* matters more than flour brand.", tags=["baking"])
    messages.message_send(mina, aiko.id, content="Do you feed your starter daily?")
    # shares (docs/shares.md): a repost on Mina's Following tab, a quote, a bookmark
    services.repost_add(aiko, make_post(make_user("Kai"), "Kai's rye crumb photo notes").id)
    services.quote_create(mina, root.id, content="Doubling overnight is a good sign.")
    services.bookmark_add(mina, root.id)
    run = run_cycle_sync(aiko.id)
    return {"mina": mina, "admin": admin, "aiko": aiko, "root": root, "reply": reply, "run": run}


def pages(c) -> list[tuple[str, str | None, str]]:
    """(page type, who is logged in, path)."""
    return [
        ("landing", None, "/"),
        ("login", None, "/login"),
        ("signup", None, "/signup"),
        ("home", "mina", "/"),
        ("home-everyone", "mina", "/?tab=everyone"),
        ("post", "mina", f"/posts/{c['root'].hex_id}"),
        ("reply-thread", "mina", f"/posts/{c['reply'].hex_id}"),
        ("report-post", "mina", f"/posts/{c['root'].hex_id}/report"),
        ("profile", "mina", f"/users/{c['aiko'].hex_id}"),
        ("people", "mina", "/users"),
        ("search", "mina", "/search?q=rye"),
        ("notifications", "mina", "/notifications"),
        ("messages", "mina", "/messages"),
        ("conversation", "mina", f"/messages/{c['aiko'].hex_id}"),
        ("settings", "mina", "/settings"),
        ("ai-memory-of-me", "mina", "/settings/ai-memory"),
        ("forget-confirmation", "mina", "/settings/ai-memory/forget"),
        ("bookmarks", "mina", "/bookmarks"),
        ("quote", "mina", f"/posts/{c['root'].hex_id}/quote"),
        ("block-confirmation", "mina", f"/users/{c['aiko'].hex_id}/block"),
        ("agent-activity", "admin", "/agents/activity"),
        ("run-detail", "admin", f"/agents/runs/{c['run'].pk}"),
        ("ai-memory", "admin", f"/users/{c['aiko'].hex_id}/memory"),
        ("not-found", "mina", "/posts/0000000000000000"),
    ]


def audit(page) -> list[dict]:
    page.evaluate(AXE.read_text())
    result = page.evaluate(
        "async (tags) => await axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})",
        TAGS,
    )
    return [
        {"id": v["id"], "impact": v["impact"], "help": v["help"], "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in result["violations"]
    ]


def test_every_page_type_has_no_serious_accessibility_violation(open_session):
    if not AXE.exists():
        pytest.skip(f"needs axe-core at {AXE} (npm ci --prefix tests/browser/axe)")
    c = community()
    figures, blocking = {}, []
    sessions = {}
    for viewport_name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        for theme in ("light", "dark"):
            for who in (None, "mina", "admin"):
                session = open_session(c[who] if who else None, viewport=viewport)
                session.page.emulate_media(color_scheme=theme)
                sessions[(viewport_name, theme, who)] = session
            for name, who, path in pages(c):
                page = sessions[(viewport_name, theme, who)].page
                page.goto(path)
                if name == "post":  # audit the map as drawn (docs/media.md §10)
                    page.wait_for_selector("figure.stgy-track-map.drawn")
                background = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
                assert (background == "rgb(17, 20, 27)") is (theme == "dark"), (name, theme, background)
                found = audit(page)
                key = f"{name} · {viewport_name} · {theme}"
                figures[key] = {impact: sum(1 for v in found if v["impact"] == impact) for impact in ("minor", "moderate", "serious", "critical")}
                blocking += [{"page": key, **v} for v in found if v["impact"] in BLOCKING]
    out = Path(settings.BASE_DIR) / "artifacts"
    out.mkdir(exist_ok=True)
    (out / "accessibility.json").write_text(json.dumps({"figures": figures, "blocking": blocking}, indent=2, ensure_ascii=False))
    print(f"\naccessibility: {len(figures)} page views, {len(blocking)} serious or critical violations")
    assert blocking == [], json.dumps(blocking, indent=1, ensure_ascii=False)[:6000]
