"""sns/web/markup.py writes what Django's format_html and format_html_join write, for
every kind of argument the cards pass: text with markup characters, safe strings, lazy
translations, numbers, None."""

from __future__ import annotations

import pytest
from django.utils import html as django_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy

from sns.web import markup

ARGUMENTS = [
    "plain",
    "<script>alert('x') & \"y\"</script>",
    mark_safe("<b>kept</b>"),
    gettext_lazy("Read more"),
    42,
    None,
    "日本語 & emoji 🍵",
]


@pytest.mark.parametrize("value", ARGUMENTS, ids=range(len(ARGUMENTS)))
def test_format_html_writes_what_djangos_writes(value):
    template = '<a title="{}" href="/x?{}">{}</a>'
    ours = markup.format_html(template, value, value, value)
    assert ours == django_html.format_html(template, value, value, value)
    assert isinstance(ours, SafeString)
    assert markup.format_html("<p>{name}</p>", name=value) == django_html.format_html("<p>{name}</p>", name=value)


def test_format_html_join_writes_what_djangos_writes():
    rows = [(value, index) for index, value in enumerate(ARGUMENTS)]
    for separator in ("", ", ", "<br>", mark_safe("<br>")):
        ours = markup.format_html_join(separator, "<li>{}#{}</li>", rows)
        assert ours == django_html.format_html_join(separator, "<li>{}#{}</li>", rows)
        assert isinstance(ours, SafeString)
