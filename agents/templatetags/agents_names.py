"""`{% post_ref names hex %}` and `{% user_ref names hex %}`: a run record's ids as
links that read as names (agents/web/names.py), the id on hover."""

from __future__ import annotations

from django import template
from django.utils.html import format_html

register = template.Library()


@register.simple_tag
def post_ref(names, hex_id) -> str:
    if not hex_id:
        return "—"
    post = names.posts.get(hex_id) if names else None
    if post is None:
        return format_html('<span class="muted" title="{}">deleted post</span>', hex_id)
    return format_html(
        '<a href="/posts/{}" title="{}">“{}”</a> <span class="muted">by {}</span>',
        hex_id, hex_id, post["excerpt"] or "(no text)", post["author"],
    )


@register.simple_tag
def user_ref(names, hex_id) -> str:
    if not hex_id:
        return "—"
    nickname = names.users.get(hex_id) if names else None
    if nickname is None:
        return format_html('<span class="muted" title="{}">deleted user</span>', hex_id)
    return format_html('<a href="/users/{}" title="{}">{}</a>', hex_id, hex_id, nickname)
