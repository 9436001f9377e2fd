"""An XSS corpus in posts, tags, nicknames, introductions and notifications executes
nothing in a real browser. Every payload would set `window.__xss`; the test reads that
flag on every page and also checks that no dangerous node reached the DOM, so the
sanitiser is proven on its own and not only behind the Content-Security-Policy."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from sns import services
from tests.factories import make_post, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FLAG = "window.__xss=1"
CORPUS = [
    f"<script>{FLAG}</script>",
    f'<img src=x onerror="{FLAG}">',
    f"<svg onload={FLAG}></svg>",
    f"<svg><script>{FLAG}</script></svg>",
    f'<iframe src="javascript:{FLAG}"></iframe>',
    f'<a href="javascript:{FLAG}">html link</a>',
    f"[markdown link](javascript:{FLAG})",
    f"[mixed case](JaVaScRiPt:{FLAG})",
    f"[entity](&#106;avascript:{FLAG})",
    f"[spaced]( javascript:{FLAG} )",
    f"![image](javascript:{FLAG})",
    f"[data url](data:text/html,<script>{FLAG}</script>)",
    f'<details open ontoggle="{FLAG}">x</details>',
    f'"><script>{FLAG}</script>',
    f"`<script>{FLAG}</script>`",
    f'<math><mtext><table><mglyph><style><img src=x onerror="{FLAG}">',
    f"[click](vbscript:{FLAG})",
    f'<form action="javascript:{FLAG}"><button>go</button></form>',
    f'<body onload="{FLAG}">',
    f'<style>@import "javascript:{FLAG}";</style>',
]

# Anything executable or able to load a script that the sanitiser must have removed.
DANGEROUS_NODES = """() => {
  const bad = [];
  const banned = ['script', 'iframe', 'svg', 'math', 'object', 'embed', 'form', 'style',
                  'details', 'body'];
  const urlAttrs = ['href', 'src', 'action', 'xlink:href'];
  const safeUrl = /^(https?:|mailto:|\\/|#)/i;
  const userText = '.markdown *, .snippet *, .quote *, .nickname *';
  for (const el of document.querySelectorAll(userText)) {
    const tag = el.tagName.toLowerCase();
    if (banned.includes(tag)) bad.push(tag);
    for (const attr of el.attributes) {
      if (attr.name.startsWith('on')) bad.push(tag + '@' + attr.name);
      if (urlAttrs.includes(attr.name) && !safeUrl.test(attr.value.trim())) {
        bad.push(tag + '@' + attr.name + '=' + attr.value);
      }
    }
  }
  for (const a of document.querySelectorAll('a[href]')) {
    const href = a.getAttribute('href');
    if (/^\\s*(javascript|vbscript|data):/i.test(href)) bad.push('a@href=' + href);
  }
  return bad;
}"""


def _assert_inert(session, path: str):
    page = session.page
    response = page.goto(path)
    assert response.status == 200, path
    page.wait_for_load_state("load")
    # Give an onerror or onload payload the moment it would need to fire.
    page.wait_for_timeout(300)
    assert page.evaluate("typeof window.__xss") == "undefined", f"payload ran on {path}"
    assert page.evaluate(DANGEROUS_NODES) == [], path
    assert session.dialogs == [], path


@pytest.mark.parametrize("without_csp", [False, True], ids=["with-csp", "sanitiser-alone"])
def test_xss_corpus_executes_nothing(open_session, without_csp):
    payload = "\n\n".join(CORPUS)
    attacker = make_user(f'<img src=x onerror="{FLAG}">Eve')
    services.user_update(attacker, attacker.id, introduction=payload)
    victim = make_user("Alice")
    services.follow_add(victim, attacker.id)
    services.follow_add(attacker, victim.id)
    victims_post = make_post(victim, "Hello, I am Alice")
    evil = make_post(
        attacker, payload, tags=[f"<script>{FLAG}</script>", f'"><img src=x onerror={FLAG}>']
    )
    services.post_create(attacker, content=payload, tags=[], reply_to=victims_post.id)
    services.like_add(attacker, victims_post.id)

    # Run once as served and once with the browser ignoring the Content-Security-Policy,
    # so the sanitiser alone must keep every payload inert.
    session = open_session(victim, bypass_csp=without_csp)
    for path in (
        "/",
        "/?tab=everyone",
        f"/posts/{evil.hex_id}",
        f"/posts/{victims_post.hex_id}",
        f"/users/{attacker.hex_id}",
        "/users",
        "/search?q=script",
        "/notifications",
    ):
        _assert_inert(session, path)

    # The payload is shown as text, not swallowed: people can see what was attempted.
    session.page.goto(f"/posts/{evil.hex_id}")
    expect(session.page.locator(".thread-focus .post-body")).to_contain_text("<script>")
    expect(session.page.locator(".thread-focus .nickname")).to_contain_text("onerror")

    # The compose preview renders through the same sanitiser.
    page = session.page
    page.goto("/")
    page.fill("textarea[name=content]", payload)
    page.click("button:has-text('Preview')")
    expect(page.locator("[data-preview-target]")).to_be_visible()
    page.wait_for_timeout(300)
    assert page.evaluate("typeof window.__xss") == "undefined"
    assert page.evaluate(DANGEROUS_NODES) == []

    # Clicking the links that were javascript: URLs does nothing either.
    page.goto(f"/posts/{evil.hex_id}")
    for link in page.locator(".thread-focus .post-body a").all():
        if link.get_attribute("href") is None:
            link.click()
    page.wait_for_timeout(200)
    assert page.evaluate("typeof window.__xss") == "undefined"
    assert session.dialogs == []
