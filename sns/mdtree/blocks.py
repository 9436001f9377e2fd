"""Markdown text → node tree, by the original's line rules (docs/data-model.md,
"Snippets"). One line at a time; a paragraph, list, table or quote runs until a line of
another kind ends it."""

from __future__ import annotations

import re

from .inline import parse_inline
from .nodes import DOT, WS, Node, element, js_trim, js_trim_start, text_node

_CODE_OPEN = re.compile(r"(`{3,})([^`]*)" + f"[{WS}]*")
_COMMENT_LINE = re.compile(f"[{WS}]*<\\[[^\\n]*?\\]>[{WS}]*")
_TOC = re.compile(f"[{WS}]*<!TOC!>[{WS}]*")
_HR = re.compile(r"-{3,}")
_LINK_SNIPPET = re.compile(f"%\\[([^\\]]*)\\][{WS}]*\\(([^)]+)\\)[{WS}]*")
_MAP = re.compile(f"@\\[([^\\]]*)\\][{WS}]*\\(([^)]+)\\)[{WS}]*(?:\\{{([^}}]*)\\}})?")
_IMAGE = re.compile(f"!\\[([^\\]]*)\\][{WS}]*\\(([^)]+)\\)[{WS}]*(?:\\{{([^}}]*)\\}})?")
_VIDEO_EXT = re.compile(r"\.(mpg|mp4|m4a|mov|avi|wmv|webm)(\?.*)?$", re.IGNORECASE | re.ASCII)
_TABLE_ROW = re.compile(f"\\|({DOT}+)\\|")
_QUOTE = re.compile(f"> ({DOT}*)")
_BLANK = re.compile(f"[{WS}]*")
_HEADING = re.compile(f"(#{{1,6}}) ({DOT}+)")
_LIST_ITEM = re.compile(f"([{WS}]*)-(\\+|:|@[-a-zA-Z0-9]+)?[{WS}]+({DOT}+)")
_MACRO_OPTION = re.compile(
    f"[{WS}]*([a-z][a-z0-9-]*)(?:=([^,]+))?[{WS}]*", re.IGNORECASE | re.ASCII
)
_CELL_OPTION = re.compile(
    f"(?:\\{{[{WS}]*(colspan|rowspan)[{WS}]*=[{WS}]*([0-9]+)[{WS}]*\\}}|(>>|><))[{WS}]*"
)
_SAFE_LINK_SNIPPET_URL = re.compile(r"(?:https?://|/(?!/))", re.IGNORECASE | re.ASCII)
_PRE_LINES = re.compile(r"-?[0-9]+")
_WS_RUN = re.compile(f"[{WS}]+")
_LINE_TERMINATOR = re.compile("[\n\r\u2028\u2029]")


def parse_markdown(md_text: str) -> list[Node]:
    return _Parser().parse(md_text or "")


def _macro_options(raw: str | None) -> dict:
    options: dict = {}
    for pair in raw.split(",") if raw else []:
        m = _MACRO_OPTION.fullmatch(pair)
        if m:
            value = m.group(2)
            value = True if value is None else js_trim(_WS_RUN.sub(" ", value))
            options[m.group(1).lower()] = value
    return options


def _pre_attrs(info: str) -> dict:
    lang = style = lines = None
    if info:
        if info.startswith(":"):
            raw_style = info[1:] or None
        else:
            idx = info.find(":")
            lang = info if idx == -1 else (info[:idx] or None)
            raw_style = None if idx == -1 else (info[idx + 1:] or None)
        if raw_style:
            styles = []
            for part in raw_style.split(":"):
                value = js_trim(part[len("lines="):]) if part.startswith("lines=") else None
                if value is not None and _PRE_LINES.fullmatch(value):
                    lines = min(10000, max(1, int(value)))
                    continue
                if part:
                    styles.append(part)
            style = ":".join(styles) or None
    attrs: dict = {}
    if lang:
        attrs["pre-mode"] = lang
    if style:
        attrs["pre-style"] = style
    if lines is not None:
        attrs["pre-lines"] = lines
    return attrs


def _cell(raw_cell: str) -> Node:
    raw = js_trim(raw_cell)
    # "=text=" is a header cell; the original's regex for it (=\s*(.*?)\s*=) is
    # quadratic in Python on a long run of spaces, so it is spelt out.
    inner = js_trim(raw[1:-1]) if len(raw) >= 2 and raw[0] == raw[-1] == "=" else None
    header = inner is not None and not _LINE_TERMINATOR.search(inner)
    rest = js_trim_start(inner if header else raw)
    align = colspan = rowspan = None
    while m := _CELL_OPTION.match(rest):
        if m.group(1):
            if m.group(1) == "colspan":
                colspan = int(m.group(2))
            else:
                rowspan = int(m.group(2))
        else:
            align = "right" if m.group(3) == ">>" else "center"
        rest = rest[m.end():]
    attrs: dict = {}
    if align:
        attrs["align"] = align
    if colspan is not None and colspan > 1:
        attrs["colspan"] = str(colspan)
    if rowspan is not None and rowspan > 1:
        attrs["rowspan"] = str(rowspan)
    return element("th" if header else "td", parse_inline(rest), attrs)


class _Parser:
    def __init__(self):
        self.nodes: list[Node] = []
        self.para: list[str] = []
        self.lists: list[dict] = []  # open lists, outermost first: level, items, bullet
        self.table: list[list[str]] = []
        self.quote: list[str] = []

    def parse(self, md_text: str) -> list[Node]:
        lines = md_text.replace("\r\n", "\n").split("\n")
        code: list[str] | None = None
        fence = 0
        pre_attrs: dict = {}
        for line in lines:
            if code is not None:
                if re.fullmatch("`{" + str(fence) + "}" + f"[{WS}]*", line):
                    self.nodes.append(element("pre", [text_node("\n".join(code))], pre_attrs))
                    code = None
                else:
                    code.append(line)
                continue
            if m := _CODE_OPEN.fullmatch(line):
                self.flush_all()
                code, fence = [], len(m.group(1))
                pre_attrs = _pre_attrs(js_trim(m.group(2) or ""))
                continue
            if not self.block_line(line):
                self.inline_line(line)
        self.flush_all()
        if code:  # an unclosed fence keeps its lines
            self.nodes.append(element("pre", [text_node("\n".join(code))], pre_attrs))
        return self.nodes

    def block_line(self, line: str) -> bool:
        """A line that stands alone as a block; True when handled."""
        if _COMMENT_LINE.fullmatch(line):
            return True
        if _TOC.fullmatch(line):
            self.flush_all()
            self.nodes.append(element("toc"))
            return True
        if _HR.fullmatch(line):
            self.flush_all()
            level = {3: 1, 4: 2}.get(len(line), 3)
            self.nodes.append(element("hr", [], {"hr-level": level}))
            return True
        m = _LINK_SNIPPET.fullmatch(line)
        if m and _SAFE_LINK_SNIPPET_URL.match(js_trim(m.group(2))):
            self.flush_all()
            caption, url = m.group(1), js_trim(m.group(2))
            anchor = element(
                "a", [text_node(caption or url)], {"class": "stgy-link-snippet-link", "href": url}
            )
            attrs = {"class": "stgy-link-snippet"}
            if caption:
                attrs["data-caption"] = caption
            self.nodes.append(element("div", [anchor], attrs))
            return True
        if _MAP.fullmatch(line):
            # Maps, tracks and YouTube embeds: never part of a snippet
            # (sns/mdtree/featured.py drops them), so only their place is kept.
            self.flush_all()
            self.nodes.append(element("figure", [], {"class": "stgy-track-map"}))
            return True
        if m := _IMAGE.fullmatch(line):
            self.flush_all()
            self.nodes.append(self.image_block(m.group(1), m.group(2), _macro_options(m.group(3))))
            return True
        return False

    @staticmethod
    def image_block(caption: str, url: str, options: dict) -> Node:
        is_video = options.get("media") == "video" or bool(_VIDEO_EXT.search(url))
        children = [element("video" if is_video else "img", [], {"src": url, **options})]
        if caption:
            children.append(element("figcaption", [text_node(caption)]))
        return element("figure", children, {"class": "image-block"})

    def inline_line(self, line: str) -> None:
        if m := _TABLE_ROW.fullmatch(line):
            self.flush_para()
            self.flush_list()
            self.flush_quote()
            self.table.append(m.group(1).split("|"))
            return
        self.flush_table()
        if m := _QUOTE.fullmatch(line):
            self.flush_para()
            self.flush_list()
            self.quote.append(m.group(1))
            return
        self.flush_quote()
        if _BLANK.fullmatch(line):
            self.flush_all()
            return
        if m := _HEADING.fullmatch(line):
            self.flush_all()
            self.nodes.append(element(f"h{len(m.group(1))}", parse_inline(m.group(2))))
            return
        if m := _LIST_ITEM.fullmatch(line):
            self.flush_para()
            self.list_item(len(m.group(1)) // 2, m.group(2) or "", m.group(3))
            return
        self.flush_list()
        self.para.append(line)

    def list_item(self, level: int, marker: str, text: str) -> None:
        bullet = {"+": "number", ":": "none"}.get(marker)
        meta = marker[1:] if marker.startswith("@") and len(marker) > 1 else None
        while self.lists and self.lists[-1]["level"] > level:
            self.close_list()
        if not self.lists or self.lists[-1]["level"] < level:
            self.lists.append({"level": level, "items": [], "bullet": bullet})
        elif not self.lists[-1]["bullet"] and bullet:
            self.lists[-1]["bullet"] = bullet
        item = element("li", parse_inline(text), {"meta": meta} if meta else None)
        self.lists[-1]["items"].append(item)

    def close_list(self) -> None:
        done = self.lists.pop()
        ul = element("ul", done["items"], {"bullet": done["bullet"]} if done["bullet"] else None)
        if not self.lists:
            self.nodes.append(ul)
        elif self.lists[-1]["items"]:
            # A deeper list belongs to the last item above it; with no item above
            # (a list that starts indented), the original drops it.
            self.lists[-1]["items"][-1]["children"].append(ul)

    def flush_para(self) -> None:
        if self.para:
            self.nodes.append(element("p", parse_inline("\n".join(self.para))))
            self.para = []

    def flush_list(self) -> None:
        while self.lists:
            self.close_list()

    def flush_table(self) -> None:
        if self.table:
            rows = [element("tr", [_cell(c) for c in row]) for row in self.table]
            self.nodes.append(element("table", rows))
            self.table = []

    def flush_quote(self) -> None:
        if self.quote:
            self.nodes.append(element("blockquote", parse_inline("\n".join(self.quote))))
            self.quote = []

    def flush_all(self) -> None:
        self.flush_para()
        self.flush_list()
        self.flush_table()
        self.flush_quote()
