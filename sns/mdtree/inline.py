"""Inline Markup of the original's dialect (docs/data-model.md, "Snippets"):

    \\x escape, {{base|ruby}}, **strong**, ::em::, %%small%%, @@mark@@, __u__, ~~s~~,
    ``code``, $$math$$, <[comment]>, [anchor](url), bare http(s) URLs, newline = <br>.

Each construct is tried in that order of priority over the whole text: its matches
split the text, the pieces between them go to the next construct, and what is inside a
match is parsed again from the top. Links come last, so "**[a](/b)**" is a strong link.
"""

from __future__ import annotations

import re
from urllib.parse import quote

from .nodes import WS, Node, element, text_node

_ESCAPE = re.compile(r"\\([\\~`*_\[\](){}#+:%$|\-.!@])")
_RUBY = re.compile(r"\{\{([^|{}]+?)\|([^{}]+?)\}\}")


def _wrap(tag):
    return lambda m: [element(tag, parse_inline(m.group(1)))]


def _ruby(m):
    return [element("ruby", [
        element("rb", parse_inline(m.group(1))),
        element("rt", parse_inline(m.group(2))),
    ])]


# (pattern, what a match becomes), in the order the original tries them.
_CONSTRUCTS = [
    (_ESCAPE, lambda m: [text_node(m.group(1))]),
    (_RUBY, _ruby),
    (re.compile(r"\*\*([^*]+)\*\*"), _wrap("strong")),
    (re.compile(r"::([^:]+?)::"), _wrap("em")),
    (re.compile(r"%%([^%]+?)%%"), _wrap("small")),
    (re.compile(r"@@([^@]+?)@@"), _wrap("mark")),
    (re.compile(r"__([^_]+)__"), _wrap("u")),
    (re.compile(r"~~([^~]+)~~"), _wrap("s")),
    (re.compile(r"``([^`]+)``"), lambda m: [element("code", [text_node(m.group(1))])]),
    (re.compile(r"\$\$([^\n]*?)\$\$"),
     lambda m: [element("math", [], {"tex": m.group(1), "math-mode": "inline"})]),
    (re.compile(r"<\[[^\]]*?\]>"), lambda m: []),
]

# re.ASCII keeps the case-insensitive [a-z] to ASCII letters, as in JavaScript.
_LINK = re.compile(
    rf"\[([^\]]+)\]\(((?:https?://[^{WS})]+|/[^{WS})]+|[-_a-z0-9]+))\)", re.IGNORECASE | re.ASCII
)
_URL = re.compile(r"(https?://[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+)")


def parse_inline(text: str) -> list[Node]:
    return _parse_from(0, text)


def _parse_from(level: int, text: str) -> list[Node]:
    while level < len(_CONSTRUCTS):
        pattern, build = _CONSTRUCTS[level]
        matches = list(pattern.finditer(text))
        if matches:
            out: list[Node] = []
            last = 0
            for m in matches:
                out += _parse_from(level + 1, text[last:m.start()])
                out += build(m)
                last = m.end()
            out += _parse_from(level + 1, text[last:])
            return out
        level += 1
    return _links_and_breaks(text)


def _encode_component(text: str) -> str:
    # JavaScript's encodeURIComponent
    return quote(text, safe="-_.!~*'()")


def _special_href(raw: str, anchor: str) -> str | None:
    if raw in ("wiki-en", "wiki-ja"):
        title = _encode_component(anchor.replace(" ", "_"))
        return f"https://{raw[5:]}.wikipedia.org/wiki/{title}"
    if raw == "google":
        return f"https://www.google.com/search?q={_encode_component(anchor)}"
    return None


def _links_and_breaks(text: str) -> list[Node]:
    nodes: list[Node] = []
    last = 0
    for m in _LINK.finditer(text):
        if m.start() > last:
            nodes.append(text_node(text[last:m.start()]))
        anchor, raw = m.group(1), m.group(2)
        href = _special_href(raw, anchor) or raw
        nodes.append(element("a", [text_node(anchor)], {"href": href}))
        last = m.end()
    # As in the original, bare URLs are linked only after the last bracketed link.
    rest, last = text[last:], 0
    for m in _URL.finditer(rest):
        if m.start() > last:
            nodes.append(text_node(rest[last:m.start()]))
        nodes.append(element("a", [text_node(m.group(0))], {"href": m.group(0)}))
        last = m.end()
    if last < len(rest):
        nodes.append(text_node(rest[last:]))
    out: list[Node] = []
    for node in nodes:
        if node["type"] != "text":
            out.append(node)
            continue
        for i, part in enumerate(node["text"].split("\n")):
            if i:
                out.append(element("br"))
            if part:
                out.append(text_node(part))
    return out
