"""The featured image leads a snippet; other media blocks leave it
(docs/data-model.md, "Snippets")."""

from __future__ import annotations

from .nodes import Node, classes_of, element, is_element, js_truthy

_DROPPED_FIGURES = {"image-block", "stgy-track-map", "stgy-embed"}


def _is_image_block(node: Node) -> bool:
    return is_element(node, "figure") and (node.get("attrs") or {}).get("class") == "image-block"


def _media_of(node: Node) -> Node | None:
    media = (c for c in node["children"] if is_element(c) and c["tag"] in ("img", "video"))
    return next(media, None)


def find_featured(nodes: list[Node]) -> Node | None:
    """The image block whose media says {featured}, else the first one not {no-featured}."""

    def tagged(nodes):
        for node in nodes:
            if _is_image_block(node):
                media = _media_of(node)
                if media and js_truthy((media.get("attrs") or {}).get("featured")):
                    return node
            if is_element(node) and node["children"]:
                found = tagged(node["children"])
                if found:
                    return found
        return None

    def first(nodes):
        for node in nodes:
            if _is_image_block(node):
                media = _media_of(node)
                if media is None or not js_truthy((media.get("attrs") or {}).get("no-featured")):
                    return node
            if is_element(node) and node["children"]:
                found = first(node["children"])
                if found:
                    return found
        return None

    return tagged(nodes) or first(nodes)


def filter_for_featured(nodes: list[Node]) -> list[Node]:
    featured = find_featured(nodes)
    body = _without_media(nodes)
    if featured is None:
        return body
    attrs = dict(featured.get("attrs") or {})
    attrs["class"] = "featured-block"
    return [element("figure", featured["children"], attrs), *body]


def _without_media(nodes: list[Node]) -> list[Node]:
    out = []
    for node in nodes:
        if is_element(node):
            classes = classes_of(node)
            if node["tag"] == "div" and "stgy-link-snippet" in classes:
                # A link card becomes a plain link paragraph.
                anchor = next((c for c in node["children"] if is_element(c, "a")), None)
                if anchor is not None:
                    href = (anchor.get("attrs") or {}).get("href") or ""
                    out.append(element("p", [{**anchor, "attrs": {"href": href}}]))
                continue
            if (node["tag"] == "figure" and _DROPPED_FIGURES & set(classes)) or (
                node["tag"] == "div" and "stgy-track-grid" in classes
            ):
                continue
            if node["children"]:
                out.append({**node, "children": _without_media(node["children"])})
                continue
        out.append(node)
    return out
