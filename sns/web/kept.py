"""Kept fragments: the per-process store behind every kept rendering (the cards of
sns/web/fragments.py, sns/web/kept_parts.py, kept_widgets.py, templatetags/stgy_urls.py)
and `KeptInclude`, an include kept rendered.
Keys are exact (whatever the rendering depends on), so nothing is ever stale, only
unused; a store that reaches its limit is emptied rather than allowed to grow."""

from __future__ import annotations

import re
from html import escape as html_escape

from django.conf import settings
from django.template.base import render_value_in_context
from django.urls import get_script_prefix, get_urlconf
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

# Where a kept rendering has a hole (a value written in on every view), its HTML holds a
# marker: private-use characters, which escaping and the Markdown renderer leave alone and
# which a page never holds otherwise; a rendering whose own text holds MARK is not kept.
MARK = "\ue000"


_MARKER = re.compile("\ue000(\\w+)\ue001")


def marker(name: str) -> str:
    return f"{MARK}{name}\ue001"


def render_include(context, template_name: str, values: dict) -> str:
    """What `{% include template_name %}` writes in `context`, with `values` set."""
    template = context.template.engine.get_template(template_name)
    with context.push(**values):
        return template.render(context)


class KeptStore:
    def __init__(self, limit: int):
        self.limit = limit
        self._items: dict = {}

    def get(self, key):
        """The kept value, or None; an unhashable key raises TypeError as a dict does."""
        return self._items.get(key)

    def put(self, key, value):
        if len(self._items) >= self.limit:
            self._items.clear()
        self._items[key] = value
        return value

    def clear(self) -> None:
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


_CONFIGURATION = "_stgy_kept_configuration"


def configuration(request=None) -> tuple:
    """What every kept rendering depends on besides its own key: the script prefix, the
    URLconf (the request's and the root one) and the active language. Each of the three
    look-ups is a context-local read of a few µs (asgiref's `Local`, which first asks
    for a running event loop and drops the error), and a home view made some forty of
    them through its kept `{% url %}`s, header, footer and compose box; none of them
    changes while a request is served, so they are read once per request and kept on
    it. Without a request (a template rendered outside one) they are read each time."""
    if request is not None:
        kept = request.__dict__.get(_CONFIGURATION)
        if kept is not None:
            return kept
    kept = (get_script_prefix(), get_urlconf(), settings.ROOT_URLCONF, get_language())
    if request is not None:
        request.__dict__[_CONFIGURATION] = kept
    return kept


class KeptInclude:
    """An include kept rendered per process: a part of a page whose template costs
    hundreds of calls but whose output is the same for every view with the same values.
    It is rendered once per key (everything it reads but its holes, and the request's
    `configuration`); a hole (a value that changes on every view) is rendered as a
    marker and written in on every view as `{{ … }}` writes it. A key holding the
    marker's character, and every include with STGY_PAGE_FRAGMENTS off, is rendered as
    before."""

    def __init__(self, template_name: str, limit: int):
        self.template_name = template_name
        self._kept = KeptStore(limit)

    def render(self, context, key: tuple | None, holes: dict, values: dict | None = None):
        """The include in `context` with `holes` and `values` set (as `{% include … with
        name=value %}` sets them); `key`: a flat tuple of everything it reads but
        `holes`, `values` included, None for not kept."""
        values = values or {}
        if (
            key is None
            or not settings.STGY_PAGE_FRAGMENTS
            or any(type(part) is str and MARK in part for part in key)
        ):
            return render_include(context, self.template_name, {**values, **holes})
        key = (*key, *configuration(getattr(context, "request", None)))
        kept = self._kept.get(key)
        if kept is None:
            markers = {name: marker(name) for name in holes}
            kept = self._kept.put(key, render_include(context, self.template_name, {**values, **markers}))
        if not holes:
            return mark_safe(kept)
        filled = {name: _written(value, context) for name, value in holes.items()}
        # One pass, so a value holding a marker is written as it is.
        return mark_safe(_MARKER.sub(lambda found: filled.get(found[1], found[0]), kept))

    def clear(self) -> None:
        self._kept.clear()

    def __len__(self) -> int:
        return len(self._kept)


def _written(value, context) -> str:
    """What `{{ value }}` writes: a plain str is only escaped (html.escape, as Django's
    `escape` does), anything else goes through the template engine's own function."""
    if type(value) is str:
        return html_escape(value) if context.autoescape else value
    return str(render_value_in_context(value, context))
