"""The one-button forms of a post card (like, repost, bookmark): plain POST forms with
the CSRF token, so they work without JavaScript."""

from __future__ import annotations

from django.utils.functional import SimpleLazyObject
from django.utils.html import format_html
from django.utils.safestring import SafeString

from .csrf_tokens import masked_token
from .display import post_url


def csrf_token(request) -> str:
    # The secret is masked anew on every call; one masked token serves a page.
    token = getattr(request, "_stgy_card_csrf_token", None)
    if token is None:
        token = request._stgy_card_csrf_token = masked_token(request)
    return token


def csrf_context(request) -> dict:
    """The templates' `csrf_token` (a context processor listed after Django's built-in
    `csrf`, so this one's wins): the cards' masked token rather than a second one, as
    masking draws a fresh random string every time."""
    return {"csrf_token": SimpleLazyObject(lambda: csrf_token(request) or "NOTPROVIDED")}


def toggle_form_html(request, post, *, action: str, css: str, pressed: bool, title: str, inner) -> SafeString:
    """A form posting to the post's `action` page and coming back to this card
    (`next`); its button announces its state with aria-pressed."""
    return format_html(
        '<form method="post" action="{}" class="inline">'
        '<input type="hidden" name="csrfmiddlewaretoken" value="{}">'
        '<input type="hidden" name="next" value="{}#post-{}">'
        '<button type="submit" class="{}" aria-pressed="{}" title="{}">{}<span class="label"> {}</span></button></form>',
        post_url(post.hex_id, action),
        csrf_token(request),
        request.get_full_path(),
        post.hex_id,
        css,
        "true" if pressed else "false",
        title,
        inner,
        title,
    )
