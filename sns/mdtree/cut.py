"""Cutting a tree to a card's size, by the original's budget rules (docs/data-model.md,
"Snippets").

Two budgets: length in weight units (a code point below U+2000 weighs 1, any other 2,
so Japanese text gets half as many characters) and height in lines. Each block (p, pre,
blockquote, h1–h6, tr, li, hr) costs 1 + length/100 lines, a <br> one line, a code
block up to its line count. Text past the length budget is cut with "…"; a block that
no longer fits ends the tree with an {"tag": "omitted"} marker (unless "…" already
shows the cut). Media cost a fixed length and height (img_len ≥ 0) or, with img_len < 0,
their caption's length; the featured figure and captions are free; captions are
trimmed to capt_max_len. With cut_on_hr, a rule after some text ends the tree.
"""

from __future__ import annotations

import math
import re

from .nodes import Node, element, is_element

_BLOCK_TAGS = {"p", "pre", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "li", "hr"}


def char_weight(ch: str) -> int:
    return 1 if ord(ch) < 0x2000 else 2


def text_weight(text: str) -> int:
    return sum(1 if ord(ch) < 0x2000 else 2 for ch in text)


def truncate_by_weight(text: str, max_weight: float) -> tuple[str, int]:
    """The longest prefix within `max_weight`, and its weight."""
    used = 0
    end = 0
    if max_weight > 0:
        for ch in text:
            w = char_weight(ch)
            if used + w > max_weight:
                break
            used += w
            end += 1
    return text[:end], used


def _metrics(nodes: list[Node]) -> tuple[int, int]:
    length = newlines = 0
    for node in nodes:
        if node["type"] == "text":
            length += text_weight(node["text"])
            newlines += node["text"].count("\n")
        else:
            sub_length, sub_newlines = _metrics(node["children"])
            length += sub_length
            newlines += sub_newlines
    return length, newlines


def _kind(attrs: dict | None) -> str | None:
    if not attrs:
        return None
    if isinstance(attrs.get("kind"), str):
        return attrs["kind"]
    cls = attrs.get("class")
    if isinstance(cls, str):
        parts = re.split(r"\s+", cls)
        if "featured-block" in parts:
            return "featured-block"
        if "image-block" in parts:
            return "image-block"
    return None


def _omitted() -> Node:
    return element("omitted")


def cut_off(
    nodes: list[Node],
    *,
    max_len: float = math.inf,
    max_height: float = math.inf,
    img_len: float = 50,
    img_height: float = 6,
    capt_max_len: float = 25,
    cut_on_hr: bool = False,
) -> list[Node]:
    return _Cutter(max_len, max_height, img_len, img_height, capt_max_len, cut_on_hr).run(nodes)


class _Cutter:
    def __init__(self, max_len, max_height, img_len, img_height, capt_max_len, cut_on_hr):
        self.dynamic_img_cost = img_len < 0
        self.fixed_img_len = max(0, img_len)
        self.img_height = img_height
        self.capt_max_len = capt_max_len
        self.cut_on_hr = cut_on_hr
        self.remain = max_len
        self.height = 0
        self.max_height = max_height
        self.cut = False
        self.omitted_inserted = False
        self.ellipsis_added = False
        self.text_consumed = 0

    def run(self, nodes: list[Node]) -> list[Node]:
        out: list[Node] = []
        for node in nodes:
            if self.cut:
                break
            kept = self.walk(node, False, False)
            if kept is not None:
                out.append(kept)
            if self.cut:
                self.mark_cut(out)
                break
        return out

    def mark_cut(self, out: list[Node]) -> None:
        if not self.omitted_inserted and not self.ellipsis_added:
            out.append(_omitted())
            self.omitted_inserted = True

    def bump_height(self, inc: float) -> bool:
        if self.height + inc > self.max_height:
            return False
        self.height += inc
        return True

    def consume_image(self, length: float) -> bool:
        if self.remain - length < 0 or self.height + self.img_height > self.max_height:
            return False
        self.remain -= length
        self.height += self.img_height
        return True

    def cut_text(self, text: str) -> tuple[str, bool]:
        if self.remain <= 0:
            self.cut = True
            return "", True
        total = text_weight(text)
        if total > self.remain:
            base, used = truncate_by_weight(text, self.remain)
            if len(base) < len(text):
                base += "…"
                self.ellipsis_added = True
            self.text_consumed += used
            self.remain = 0
            self.cut = True
            return base, True
        self.text_consumed += total
        self.remain -= total
        return text, False

    def trim_caption(self, children: list[Node]) -> list[Node]:
        from .text import render_text

        if self.dynamic_img_cost or self.capt_max_len < 0:
            return children
        if _metrics(children)[0] <= self.capt_max_len:
            return children
        full = render_text([element("span", children)])
        truncated, _ = truncate_by_weight(full, self.capt_max_len)
        if len(truncated) < len(full):
            truncated += "…"
        return [{"type": "text", "text": truncated}]

    def walk(self, node: Node, free_media: bool, free_text: bool) -> Node | None:
        if self.cut:
            return None
        if node["type"] == "text":
            if free_text:
                return dict(node)
            text, was_cut = self.cut_text(node["text"])
            return None if text == "" and was_cut else {**node, "text": text}
        tag = node["tag"]
        if tag == "toc":
            return None
        if tag == "br":
            if not free_text and not self.bump_height(1):
                self.cut = True
                return None
            return {**node, "children": []}
        featured = tag == "figure" and _kind(node.get("attrs")) == "featured-block"
        charged_at_figure = False
        if tag == "figure" and not free_media and self.dynamic_img_cost and not featured and any(
            is_element(c) and c["tag"] in ("img", "video") for c in node["children"]
        ):
            caption = next((c for c in node["children"] if is_element(c, "figcaption")), None)
            if not self.consume_image(_metrics(caption["children"])[0] if caption else 0):
                self.cut = True
                return None
            charged_at_figure = True
        if not free_text and tag in _BLOCK_TAGS and not self.block_fits(node):
            self.cut = True
            return None
        if tag in ("img", "video") and not free_media:
            if self.dynamic_img_cost:
                fits = self.bump_height(self.img_height)
            else:
                fits = self.consume_image(self.fixed_img_len)
            if not fits:
                self.cut = True
                return None
        if tag == "hr":
            if self.cut_on_hr and self.text_consumed > 0:
                self.cut = True
                return None
            return {**node, "children": []}
        child_free_media = free_media or featured or charged_at_figure or tag == "figcaption"
        child_free_text = free_text or tag == "figcaption"
        children: list[Node] = []
        for child in node["children"]:
            kept = self.walk(child, child_free_media, child_free_text)
            if kept is not None:
                children.append(kept)
            if self.cut:
                self.mark_cut(children)
                break
        if tag == "figcaption":
            children = self.trim_caption(children)
        return {**node, "children": children}

    def block_fits(self, node: Node) -> bool:
        length, newlines = _metrics(node["children"])
        charge = min(length, max(0, self.remain))
        avail = max(0, self.max_height - self.height)
        inc = 1 + math.floor(charge / 100)
        if node["tag"] == "pre" and newlines > 1:
            inc = max(inc, min(newlines, avail))
        inc = min(inc, avail)
        return self.bump_height(inc if inc > 0 else 1)
