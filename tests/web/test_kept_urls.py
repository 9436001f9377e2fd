"""The kept `{% url %}` (sns/web/templatetags/stgy_urls.py) gives Django's own tag's
output, and a changed script prefix or argument is another path, never a kept one."""

import pytest
from django.template import Context, Engine, Template
from django.urls import NoReverseMatch, clear_script_prefix, set_script_prefix

from sns.web.templatetags import stgy_urls

_SOURCE = (
    "{% url 'web:home' %}|{% url 'web:profile' hex %}|{% url 'web:post' post_hex=hex %}"
    "|{% url 'web:nope' as missing %}[{{ missing }}]"
)


def _both(**context):
    engine = Engine.get_default()
    django_tag = Template(_SOURCE, engine=engine)
    kept_tag = Template("{% load stgy_urls %}" + _SOURCE, engine=engine)
    return django_tag.render(Context(context)), kept_tag.render(Context(context))


def test_same_output_as_django_cold_and_warm():
    stgy_urls.clear()
    for hex_id in ("1a", "2b", "1a", "<&>"):
        expected, kept = _both(hex=hex_id)
        assert kept == expected
    assert "%3C&amp;%3E" in kept  # escaped as Django escapes it


def test_script_prefix_is_part_of_the_key():
    stgy_urls.clear()
    first = _both(hex="1a")
    try:
        set_script_prefix("/sub/")
        expected, kept = _both(hex="1a")
    finally:
        clear_script_prefix()
        set_script_prefix("/")
    assert kept == expected
    assert kept.startswith("/sub/") and kept != first[1]
    assert _both(hex="1a")[1] == first[1]


def test_an_unknown_name_still_raises():
    with pytest.raises(NoReverseMatch):
        Template("{% load stgy_urls %}{% url 'web:nope' %}").render(Context({}))
