"""The stored form of a tree: the original's compact JSON (docs/data-model.md,
"Snippets"). An element is {"T": tag}, then "X": its text when its only child is one text
node, else "C": [children]; then its attributes under short codes (src → "SR", …) and any
others under "A". A text node is {"X": text}. Positions are not kept; empty-string and
false attributes are left out."""

from __future__ import annotations

import json

from .nodes import Node, element, text_node

_ATTR_CODES = {
    "src": "SR", "alt": "AT", "href": "HF", "data-mode": "MD", "bullet": "BT", "controls": "CT",
    "aria-label": "AL", "class": "CL", "grid": "GD", "data-cols": "DC", "featured": "FE",
    "no-featured": "NF", "pre-mode": "PM", "pre-style": "PS", "pre-lines": "PL", "hr-level": "HL",
}
_ATTR_NAMES = {code: name for name, code in _ATTR_CODES.items()}
_PRIMITIVES = (str, int, float, bool)


def _encode(node: Node) -> dict:
    if node["type"] == "text":
        return {"X": node["text"]}
    out: dict = {"T": node["tag"]}
    children = node.get("children") or []
    if len(children) == 1 and children[0]["type"] == "text":
        out["X"] = children[0]["text"]
    elif children:
        out["C"] = [_encode(c) for c in children]
    unknown: dict = {}
    for name, value in (node.get("attrs") or {}).items():
        if value is None or value is False or value == "":
            continue
        code = _ATTR_CODES.get(name)
        if code:
            out[code] = value
        else:
            unknown[name] = value
    if unknown:
        out["A"] = unknown
    return out


def serialize(nodes: list[Node]) -> str:
    # Compact and non-ASCII as is: the bytes JavaScript's JSON.stringify writes.
    return json.dumps([_encode(n) for n in nodes], ensure_ascii=False, separators=(",", ":"))


def _keep(value) -> bool:
    return isinstance(value, _PRIMITIVES) and value != "" and value is not False


def _decode(data) -> Node:
    if not isinstance(data, dict):
        return text_node(str(data))
    if "T" not in data:
        return text_node(str(data.get("X", "")))
    raw_children = data.get("C")
    if isinstance(raw_children, list):
        children = [_decode(c) for c in raw_children]
    elif isinstance(data.get("X"), str):
        children = [text_node(data["X"])]
    else:
        children = []
    attrs: dict = {}
    for key, value in data.items():
        name = _ATTR_NAMES.get(key)
        if name and _keep(value):
            attrs[name] = value
    unknown = data.get("A")
    if isinstance(unknown, dict):
        attrs.update({k: v for k, v in unknown.items() if _keep(v)})
    return element(str(data["T"]), children, attrs)


def deserialize(data: str) -> list[Node]:
    """Raises ValueError when `data` is not a serialised tree."""
    parsed = json.loads(data)
    if not isinstance(parsed, list):
        raise ValueError("not a node list")
    return [_decode(item) for item in parsed]
