"""`format_html` and `format_html_join` for the post card's modules (sns/web/cards.py,
share_cards.py, card_forms.py, link_cards.py), which call them some thirty times a card.

The output is Django's (django.utils.html): each argument that has `__html__` goes in
as that method gives it, any other is made a string and escaped with `html.escape`,
which is what `django.utils.html.escape` does; the template's `str.format` does the
rest. What is left out is the per-argument `keep_lazy` wrapping of `escape` and
`conditional_escape`, which cost a card drawn cold (the first view of a post in a
process, most views of a post page on a large site) about as much as the escaping
itself. tests/web/test_markup.py compares both with Django's.
"""

from __future__ import annotations

from html import escape

from django.utils.safestring import SafeString


def _escaped(value) -> str:
    if hasattr(value, "__html__"):
        return value.__html__()
    return escape(str(value))


def format_html(template: str, *args, **kwargs) -> SafeString:
    """django.utils.html.format_html."""
    return SafeString(
        template.format(*map(_escaped, args), **{name: _escaped(value) for name, value in kwargs.items()})
    )


def format_html_join(separator: str, template: str, rows) -> SafeString:
    """django.utils.html.format_html_join, with rows of positional arguments."""
    return SafeString(_escaped(separator).join(format_html(template, *row) for row in rows))
