"""The one-button forms of a post card (like, repost, bookmark): plain POST forms with
the CSRF token, so they work without JavaScript."""

from __future__ import annotations

from django.middleware.csrf import get_token
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import SafeString

from .display import post_url
from .markup import format_html


def csrf_token(request) -> str:
    """The page's masked CSRF token (`get_token`), asked for once a response: Django
    masks the secret anew on every call (drawing the mask's 32 characters one by one,
    some 400 Python calls), and one masked token serves every form of a response."""
    token = request.__dict__.get("_stgy_csrf_token")
    if token is None:
        token = request._stgy_csrf_token = get_token(request)
    return token


def csrf_context(request) -> dict:
    """The templates' `csrf_token` (a context processor listed after Django's built-in
    `csrf`, so this one's wins): the cards' token rather than a second masking."""
    return {"csrf_token": SimpleLazyObject(lambda: csrf_token(request) or "NOTPROVIDED")}


def toggle_form_html(post, parts, *, action: str, css: str, pressed: bool, title: str, inner) -> SafeString:
    """A form posting to the post's `action` page and coming back to this card (`next`);
    its button announces its state with aria-pressed. `parts`: the card's per-view parts
    (sns/web/cards.py `view_parts`), which hold the CSRF token and the page's path."""
    return format_html(
        '<form method="post" action="{}" class="inline">'
        '<input type="hidden" name="csrfmiddlewaretoken" value="{}">'
        '<input type="hidden" name="next" value="{}#post-{}">'
        '<button type="submit" class="{}" aria-pressed="{}" title="{}">{}<span class="label"> {}</span></button></form>',
        post_url(post.hex_id, action),
        parts["token"],
        parts["back"],
        post.hex_id,
        css,
        "true" if pressed else "false",
        title,
        inner,
        title,
    )
