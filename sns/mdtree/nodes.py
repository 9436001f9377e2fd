"""The node tree: plain dicts in the original's shape, so a tree compares equal to the
original's own test expectations (docs/data-model.md, "Snippets").

    {"type": "text", "text": "..."}
    {"type": "element", "tag": "p", "attrs": {...}, "children": [...]}

"attrs" is present only when not empty.
"""

from __future__ import annotations

import re

Node = dict

# JavaScript's \s (WhiteSpace + LineTerminator); Python's differs (e.g. U+FEFF), and the
# original's rules are written against JavaScript's.
WS = "\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
# JavaScript's "." without the s flag: anything but a line terminator.
DOT = "[^\n\r\u2028\u2029]"

_WS_CHARS = "\t\n\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff" + "".join(
    chr(c) for c in range(0x2000, 0x200B)
)


def js_trim(text: str) -> str:
    return text.strip(_WS_CHARS)


def js_trim_start(text: str) -> str:
    return text.lstrip(_WS_CHARS)


def text_node(text: str) -> Node:
    return {"type": "text", "text": text}


def element(tag: str, children: list[Node] | None = None, attrs: dict | None = None) -> Node:
    node: Node = {"type": "element", "tag": tag}
    if attrs:
        node["attrs"] = attrs
    node["children"] = children if children is not None else []
    return node


def is_element(node: Node, tag: str | None = None) -> bool:
    return node.get("type") == "element" and (tag is None or node.get("tag") == tag)


def classes_of(node: Node) -> list[str]:
    value = (node.get("attrs") or {}).get("class")
    return re.split(f"[{WS}]+", value) if isinstance(value, str) else []


def js_truthy(value) -> bool:
    return value not in (None, False, "", 0)
