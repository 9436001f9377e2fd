"""`{{ n|grouped }}`: a count with thousands separators (807,420), for the usage
figures of the Agent activity page; the site does not load django.contrib.humanize."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def grouped(value) -> str:
    try:
        return f"{int(value):,}"
    except (TypeError, ValueError):
        return str(value)
