"""Form widgets whose HTML is kept per process: the compose box and the reply box are
on every timeline and post page, and Django renders each widget through the template
engine (≈ 0.5 ms a widget, most of those forms' cost).

A widget's HTML is a function of what `Widget.render` is given and of the widget's own
configuration (template, attributes, required, localized), and the key is exactly
those, so a changed limit (limit_length), a prefilled value or another field's id is
another entry, never a stale one. Off with STGY_PAGE_FRAGMENTS, like the cards
(sns/web/fragments.py)."""

from __future__ import annotations

from django import forms
from django.conf import settings

from .kept import KeptStore

# A page has a handful of widgets and few distinct prefilled values; refused input
# being typed text, the store is emptied rather than allowed to grow.
_kept = KeptStore(512)


def _frozen(attrs) -> tuple:
    return tuple(sorted(attrs.items())) if attrs else ()


class KeptRender:
    def render(self, name, value, attrs=None, renderer=None):
        if not settings.STGY_PAGE_FRAGMENTS:
            return super().render(name, value, attrs, renderer)
        key = (type(self), self.template_name, self.is_required, self.is_localized, _frozen(self.attrs),
               name, type(value), value, _frozen(attrs), renderer)
        try:
            html = _kept.get(key)
        except TypeError:  # an unhashable value: rendered every time
            return super().render(name, value, attrs, renderer)
        if html is None:
            html = _kept.put(key, super().render(name, value, attrs, renderer))
        return html


class Textarea(KeptRender, forms.Textarea):
    pass


class TextInput(KeptRender, forms.TextInput):
    pass


class CheckboxInput(KeptRender, forms.CheckboxInput):
    pass


def clear() -> None:
    _kept.clear()
