"""Includes kept rendered per process: a part of a page whose template costs hundreds of
calls but whose output is the same for every view with the same values (the home
timeline's tabs, a post page's times and links and its reply box;
sns/web/kept_tabs.py, kept_post_page.py). Each is rendered once per key, everything it reads but its
holes, and the request's configuration (sns/web/kept_store.py `configuration`: the URLconf
and script prefix its URLs are reversed with, the language), as every kept rendering is; a
hole (a value that changes on every view) is rendered as a marker (kept_store `marker`) and
written in on every request as the template would have written it, escaped. A key holding the marker's character, and every include with
STGY_PAGE_FRAGMENTS off, is rendered as before; nothing is ever stale, only unused."""

from __future__ import annotations

from django.conf import settings
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

from .kept_store import MARK, KeptStore, configuration, marker, render_include


class KeptInclude:
    def __init__(self, template_name: str, limit: int):
        self.template_name = template_name
        self._kept = KeptStore(limit)

    def render(self, context, key: tuple | None, holes: dict):
        """The include in `context`; `key`: a flat tuple of everything it reads but
        `holes` (name → the value the template would write), None for not kept."""
        if (
            key is None
            or not settings.STGY_PAGE_FRAGMENTS
            or any(type(part) is str and MARK in part for part in key)
        ):
            return render_include(context, self.template_name, {})
        key = (*key, *configuration(getattr(context, "request", None)))
        kept = self._kept.get(key)
        if kept is None:
            kept = self._kept.put(key, render_include(context, self.template_name, {name: marker(name) for name in holes}))
        for name, value in holes.items():
            kept = kept.replace(marker(name), conditional_escape(value))
        return mark_safe(kept)

    def clear(self) -> None:
        self._kept.clear()

    def __len__(self) -> int:
        return len(self._kept)
