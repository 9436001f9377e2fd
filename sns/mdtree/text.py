"""Node tree → plain text, as the original renders it for excerpts and notifications:
blocks end with a blank line, list items get "- " and two spaces per nesting level,
table rows become |cell|cell|, ruby text goes in parentheses, a cut shows as "…"."""

from __future__ import annotations

import re

from .nodes import Node, classes_of, is_element, js_trim

_DOUBLE_AFTER = {"p", "pre", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "figure"}


def _cell_text(nodes: list[Node]) -> str:
    out = []
    for node in nodes:
        if node["type"] == "text":
            out.append(node["text"])
            continue
        tag = node["tag"]
        if tag in ("toc", "rp"):
            continue
        if tag == "br":
            out.append("\n")
        elif tag == "omitted":
            out.append("…")
        elif tag == "rt":
            out.append("(" + _cell_text(node["children"]) + ")")
        elif tag == "math":
            out.append(str((node.get("attrs") or {}).get("tex", "")))
        else:
            out.append(_cell_text(node["children"]))
    return "".join(out)


class _Renderer:
    def __init__(self):
        self.out: list[str] = []

    def ends_with_newline(self) -> bool:
        return bool(self.out) and self.out[-1].endswith("\n")

    def ensure_newline(self) -> None:
        if not self.ends_with_newline():
            self.out.append("\n")

    def walk(self, node: Node, depth: int = 0) -> None:
        out = self.out
        if node["type"] == "text":
            out.append(node["text"])
            return
        tag, children = node["tag"], node["children"]
        if tag == "ruby":
            for child in children:
                if is_element(child, "rt"):
                    out.append("(")
                    self.walk(child, depth)
                    out.append(")")
                else:
                    self.walk(child, depth)
        elif tag == "table":
            for row in children:
                if not is_element(row, "tr"):
                    continue
                cells = [
                    js_trim(re.sub(r"\n+", " ", _cell_text(cell["children"])))
                    for cell in row["children"]
                    if is_element(cell) and cell["tag"] in ("td", "th")
                ]
                out.append("|" + "|".join(cells) + "|")
                out.append("\n")
            self.ensure_newline()
            out.append("\n")
        elif tag == "br":
            out.append("\n")
        elif tag == "omitted":
            out.append("…")
        elif tag == "ul":
            for child in children:
                self.walk(child, depth + 1)
            self.ensure_newline()
            if depth == 0:
                out.append("\n")
        elif tag == "li":
            out.append("  " * max(0, depth - 1) + "- ")
            last_was_list = False
            for child in children:
                if is_element(child, "ul"):
                    self.ensure_newline()
                    self.walk(child, depth)
                    last_was_list = True
                else:
                    self.walk(child, depth)
                    last_was_list = False
            if not last_was_list:
                out.append("\n")
        elif tag == "math":
            out.append(str((node.get("attrs") or {}).get("tex", "")))
        elif tag == "div":
            for child in children:
                self.walk(child, depth)
            if "stgy-link-snippet" in classes_of(node):
                out.append("\n\n")
        else:
            for child in children:
                self.walk(child, depth)
            if tag in _DOUBLE_AFTER:
                out.append("\n\n")
            elif tag == "hr":
                self.ensure_newline()


def render_text(nodes: list[Node]) -> str:
    renderer = _Renderer()
    for node in nodes:
        renderer.walk(node, 0)
    text = re.sub(r"[ \t]+\n", "\n", "".join(renderer.out))
    return js_trim(re.sub(r"\n{3,}", "\n\n", text))
