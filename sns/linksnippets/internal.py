"""Cards for links to this site (docs/api.md, "Link previews"): a user's nickname and
introduction, a post's heading and text, read as the viewer may read them. Signed-out
readers get cards only for public posts; anything the viewer may not see is
`unavailable`, never an error, so a card cannot tell whether a hidden post exists."""

from __future__ import annotations

import re

from sns import selectors
from sns.core.errors import DomainError
from sns.core.ids import parse_id
from sns.mdtree import parse_markdown, render_text
from sns.media import embeds
from sns.selectors.publication import pub_config_get, public_post_get

from .extract import fold, truncate
from .records import limits, present, snippet

SITE_NAME = "STGY"
_IMAGE_SRC = re.compile(r"!\[[^\]]*\]\(\s*(/images/[^)\s]+)")


def _unavailable(url: str) -> dict:
    return present(snippet(url, "unavailable", site_name=SITE_NAME), stale=False, refreshing=False)


def _title_and_text(markdown_text: str) -> tuple[str, str]:
    """The first level-1 heading (else level-2) as the title and the rest as text, read
    with the original's own Markdown dialect (sns/mdtree), as its cards are."""
    nodes = parse_markdown(markdown_text or "")
    for level in ("h1", "h2"):
        for index, node in enumerate(nodes):
            if node.get("tag") == level and (title := fold(render_text([node]))):
                return title, render_text(nodes[:index] + nodes[index + 1:])
    return "", render_text(nodes)


def _image(markdown_text: str) -> str | None:
    match = _IMAGE_SRC.search(markdown_text or "")
    found = embeds.resolve([match.group(1)]) if match else {}
    return found[match.group(1)][0] if found else None


def resolve(target, viewer) -> dict:
    size = limits()
    try:
        target_id = parse_id(target.hex_id)
        if target.kind == "user":
            if viewer is None:
                return _unavailable(target.url)
            user = selectors.user_get(target_id, focus_user_id=viewer.id)
            if selectors.hidden_user_ids(viewer, [user.id]):
                return _unavailable(target.url)
            title = truncate(user.nickname, size["title"])
            return present(snippet(
                target.url, "ready" if title else "unavailable", title=title or None,
                description=truncate(render_text(parse_markdown(user.introduction or "")),
                                     size["description"]) or None,
                site_name=SITE_NAME), stale=False, refreshing=False)
        if target.kind == "pub":
            post = public_post_get(target_id, viewer=viewer)
            site_name = pub_config_get(post.owner_id).site_name.strip() or SITE_NAME
        else:
            if viewer is None:
                return _unavailable(target.url)
            # Hidden from the viewer (sns/selectors/visibility.py): 404, so unavailable.
            post = selectors.post_get(target_id, focus_user_id=viewer.id, viewer=viewer)
            site_name = SITE_NAME
    except DomainError:  # not found, or an id out of range
        return _unavailable(target.url)
    heading, text = _title_and_text(post.content)
    moment = post.published_at or post.created_at
    title = truncate(heading, size["title"]) or truncate(f"POST@{moment:%Y-%m-%d}", size["title"])
    return present(snippet(
        target.url, "ready", title=title,
        description=truncate(text, size["description"]) or None,
        site_name=truncate(site_name, size["site_name"]) or None,
        image_url=_image(post.content)), stale=False, refreshing=False)
