"""The per-process store behind every kept rendering (sns/web/kept_widgets.py,
kept_compose.py, kept_chrome.py, templatetags/stgy_urls.py): keys are exact (whatever
the rendering depends on), so nothing is ever stale, only unused; a store that reaches
its limit is emptied rather than allowed to grow."""

from __future__ import annotations

from django.conf import settings
from django.urls import get_script_prefix, get_urlconf
from django.utils.translation import get_language


# Where a kept rendering has a hole (a value written in on every view), its HTML holds a
# marker: private-use characters, which escaping and the Markdown renderer leave alone and
# which a page never holds otherwise; a rendering whose own text holds MARK is not kept.
MARK = "\ue000"


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
