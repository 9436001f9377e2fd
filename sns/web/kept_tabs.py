"""The home timeline's tabs, its "new posts" button and the opening of its section kept
rendered per process (templates/timeline/_tabs.html, through sns/web/kept_includes.py):
they are the same for every viewer on the same tab but for the newest post's id, which
the live check counts from, and their template (a dozen comparisons of the tab, five
reversed URLs) was about 460 Python calls of a home view.
Kept per tab, tag, whether "For you" is offered and whether the page polls for newer
posts, by the People / AI / All filter and whether For you fell back to Everyone."""

from __future__ import annotations

from .kept_includes import KeptInclude

# One entry per tab and tag: a tag comes from the address, so the store is emptied
# rather than allowed to grow (sns/web/kept_store.py).
_tabs = KeptInclude("timeline/_tabs.html", 256)


def timeline_tabs(context) -> str:
    key = (
        context.get("tab"), context.get("tag"), context.get("for_you_available"), context.get("live"),
        context.get("authors"), context.get("for_you_empty"),
    )
    return _tabs.render(context, key, {"live_after": context.get("live_after")})


def clear() -> None:
    _tabs.clear()
