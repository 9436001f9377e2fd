"""Markdown for posts and introductions: sanitised HTML and plain text. (The stored
`snippet` is the original's node tree, made by sns/mdtree.)

markdown-it-py renders CommonMark with raw HTML disabled; nh3 (Ammonia) then
sanitises the result, so no script, event handler or javascript: URL survives even
if a renderer bug let one through.
"""

from __future__ import annotations

import re
from functools import lru_cache

import nh3
from markdown_it import MarkdownIt
from markdown_it.token import Token

_ALLOWED_TAGS = {
    "p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "strong", "em", "del", "s", "code",
    "pre", "blockquote", "ul", "ol", "li", "a", "img", "table", "thead", "tbody", "tr", "th",
    "td", "figure", "figcaption", "div", "span",
}
_ALLOWED_ATTRIBUTES = {
    "a": {"href", "title"},
    "img": {"src", "alt", "title", "width", "height", "loading", "decoding"},
    "ol": {"start"},
    # Maps (sns/media/maps.py): raw HTML is off, so only that renderer writes these.
    "figure": {"class", "data-map"},
    "div": {"class"},
    "span": {"class"},
    "ul": {"class"},
}
_IMAGE_ATTRIBUTE_BLOCK = re.compile(r"^\{[A-Za-z0-9 _-]*\}")
_CACHED_RENDERINGS = 2048
_CACHED_TEXT_CHARS = 12000  # a post's content limit is 10,000 pseudo tokens


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    parser = MarkdownIt("commonmark", {"html": False, "linkify": False, "breaks": True}).enable(
        ["table", "strikethrough"]
    )
    parser.block.ruler.before("paragraph", "stgy_map", _map_line, {"alt": ["paragraph"]})
    parser.add_render_rule("stgy_map", lambda self, tokens, idx, options, env: _maps().render(tokens[idx].meta))
    return parser


def _maps():
    from ..media import maps

    return maps


def _map_line(state, start: int, end: int, silent: bool) -> bool:
    """A line `@[caption](map://...)` or `@[caption](/tracks/...)` is a map (docs/media.md §10)."""
    if state.sCount[start] - state.blkIndent >= 4:
        return False
    line = state.src[state.bMarks[start] + state.tShift[start]:state.eMarks[start]]
    if not line.startswith("@["):
        return False
    spec = _maps().parse_line(line)
    if spec is None:
        return False
    if not silent:
        token = state.push("stgy_map", "figure", 0)
        token.meta, token.map, token.block = spec, [start, start + 1], True
        state.line = start + 1
    return True


def render_html(markdown_text: str, mentions: dict[str, str] | None = None) -> str:
    """`mentions`: lower-cased nickname → user hex id (`sns.reads.mentions.mention_links`);
    those mentions become links to the user, every other "@name" stays text."""
    text = markdown_text or ""
    key = tuple(sorted(mentions.items())) if mentions else ()
    return _render_recent(text, key) if len(text) <= _CACHED_TEXT_CHARS else _render(text, key)


@lru_cache(maxsize=_CACHED_RENDERINGS)
def _render_recent(markdown_text: str, mentions: tuple = ()) -> str:
    # Timelines show the same recent posts to every reader; the process keeps the HTML
    # of the last few thousand texts rather than rendering them on every view.
    return _render(markdown_text, mentions)


def _render(markdown_text: str, mentions: tuple = ()) -> str:
    parser = _parser()
    tokens = parser.parse(markdown_text)
    if mentions:
        _link_mentions(tokens, dict(mentions))
    _prepare_images(tokens)
    _maps().resolve_tracks([token.meta for token in tokens if token.type == "stgy_map"])
    html = parser.renderer.render(tokens, parser.options, {})
    return nh3.clean(
        html,
        tags=_ALLOWED_TAGS,
        attributes=_ALLOWED_ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel="nofollow noopener noreferrer",
    )


def _prepare_images(tokens) -> None:
    """Every image loads lazily; our uploads (`/images/...`) point at the store and get
    their width and height (docs/media.md §6)."""
    from ..media import embeds

    images = []
    for block in tokens:
        children = (block.children or []) if block.type == "inline" else []
        for index, child in enumerate(children):
            if child.type != "image":
                continue
            images.append(child)
            after = children[index + 1] if index + 1 < len(children) else None
            if after is not None and after.type == "text":
                # The original's editor writes "![](/images/...){grid}"; the block is layout.
                after.content = _IMAGE_ATTRIBUTE_BLOCK.sub("", after.content, count=1)
    if not images:
        return
    resolved = embeds.resolve([str(image.attrs.get("src", "")) for image in images])
    for image in images:
        image.attrs["loading"] = "lazy"
        image.attrs["decoding"] = "async"
        found = resolved.get(str(image.attrs.get("src", "")))
        if found:
            url, width, height = found
            image.attrs["src"] = url
            if width and height:
                image.attrs["width"], image.attrs["height"] = str(width), str(height)


def _link_mentions(tokens, mentions: dict[str, str]) -> None:
    """Known mentions in text (not in code, not inside a link) become links to the user."""
    from .mentions import MENTION_RE

    for block in tokens:
        if block.type != "inline" or not block.children:
            continue
        out, in_link = [], 0
        for child in block.children:
            in_link += child.type == "link_open"
            in_link -= child.type == "link_close"
            if child.type != "text" or in_link or "@" not in child.content:
                out.append(child)
                continue
            out.extend(_split_mentions(child.content, mentions, MENTION_RE))
        block.children = out


def _split_mentions(text: str, mentions: dict[str, str], pattern) -> list[Token]:
    parts, last = [], 0
    for match in pattern.finditer(text):
        hex_id = mentions.get((match.group(1) or match.group(2)).strip().lower())
        if hex_id is None:
            continue
        if match.start() > last:
            parts.append(_text_token(text[last:match.start()]))
        link = Token("link_open", "a", 1)
        link.attrs = {"href": f"/users/{hex_id}"}
        # "@[Nick Name]" shows as "@Nick Name"
        shown = "@" + (match.group(1) or match.group(2)).strip()
        parts += [link, _text_token(shown), Token("link_close", "a", -1)]
        last = match.end()
    if last < len(text):
        parts.append(_text_token(text[last:]))
    return parts


def _text_token(content: str) -> Token:
    token = Token("text", "", 0)
    token.content = content
    return token


def to_plain_text(markdown_text: str) -> str:
    """Rendered text without markup (docs/summaries-and-vectors.md §4): blocks end with a blank
    line, list items get "- " and two spaces per nesting level, table rows become
    `|cell|cell|`."""
    out: list[str] = []
    depth = 0
    row: list[str] | None = None
    for token in _parser().parse(markdown_text or ""):
        kind = token.type
        if kind in ("bullet_list_open", "ordered_list_open"):
            depth += 1
        elif kind in ("bullet_list_close", "ordered_list_close"):
            depth -= 1
            if depth == 0:
                out.append("\n")
        elif kind == "list_item_open":
            out.append("  " * (depth - 1) + "- ")
        elif kind == "inline":
            text = _inline_text(token)
            if row is not None:
                row.append(text)
            else:
                out.append(text)
        elif kind in ("paragraph_close", "heading_close"):
            out.append("\n" if depth else "\n\n")
        elif kind in ("fence", "code_block"):
            out.append(token.content.rstrip("\n") + "\n\n")
        elif kind == "hr":
            out.append("\n")
        elif kind == "tr_open":
            row = []
        elif kind == "tr_close":
            out.append("|" + "|".join(row or []) + "|\n")
            row = None
        elif kind == "table_close":
            out.append("\n")
    text = re.sub(r"[ \t]+\n", "\n", "".join(out))
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def _inline_text(token) -> str:
    parts = []
    for child in token.children or []:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append("\n")
        elif child.type == "image":
            parts.append(child.content)
    return "".join(parts)


def folded_plain_text(markdown_text: str) -> str:
    """Plain text with space runs and newline runs folded, as the embedding inputs use."""
    text = re.sub(r"[ \t]+", " ", to_plain_text(markdown_text))
    return re.sub(r"\n+", "\n", text).strip()
