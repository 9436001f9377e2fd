"""The one wrapper every page view goes through.

`@page` makes a view log-in-only (unless `public=True`), translates the rulebook's
`DomainError` into what a person should see (the security headers are set for every
response by `stgy.security_headers`):

* on a GET, an error page with the error's status (403 for someone else's AI memory,
  404 for a missing post, 400 for a malformed id);
* on a POST, the browser is sent back where it came from (post/redirect/get), with the
  fields it typed kept for the form there and the message shown beside the field it
  concerns (sns/web/field_errors.py), or as a banner when it concerns none. Nothing
  typed is lost but a password or a mailed code, which are never written to the
  session nor echoed into a page (docs/pages.md §1);
* 401 always means the login page.

No view catches `DomainError` itself: the services decide, this module only reports.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import wraps
from urllib.parse import urlencode, urlsplit

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.functional import LazyObject, empty
from django.utils.http import url_has_allowed_host_and_scheme

from sns.core.errors import DomainError
from sns.selectors.agreements import agreement_required
from sns.selectors import Page

from .field_errors import attach_errors, error_field

PAGE_SIZE = 20
_MAX_PAGE_NUMBER = 200
_KEPT_INPUT = "web:kept-input"
# Never written to the session, whatever the form.
_SECRET_FIELDS = {
    "csrfmiddlewaretoken",
    "password",
    "current_password",
    "new_password",
    "new_password2",
    "code",  # a mailed verification code (docs/accounts.md)
}


def page(
    view=None, *, public: bool = False, back: str | None = None, before_agreement: bool = False
):
    """`back` names the page (URL name, reversed with the view's own arguments) that a
    refused POST returns to when it carries neither `next` nor a same-site Referer;
    without it, a form page returns to itself. A logged-in page asks a person who has
    not accepted the newest terms of use to do so first, unless `before_agreement`."""

    def decorate(fn):
        @wraps(fn)
        def wrapped(request, *args, **kwargs):
            _unwrap_user(request, load=not public)
            if not public and not request.user.is_authenticated:
                response = redirect_to_login(request.get_full_path())
            elif not public and not before_agreement and agreement_required(request.user):
                target = reverse("web:agreement")
                response = redirect(f"{target}?{urlencode({'next': request.get_full_path()})}")
            else:
                try:
                    response = fn(request, *args, **kwargs)
                except DomainError as exc:
                    fallback = reverse(back, args=args, kwargs=kwargs) if back else None
                    response = _error_response(request, exc, fallback)
            return response

        return wrapped

    return decorate(view) if view is not None else decorate


def _unwrap_user(request, *, load: bool) -> None:
    """Put the user itself in `request.user` in place of the lazy proxy that
    sns/auth/session.py sets: through the proxy every attribute read first fails on the
    proxy (an AttributeError made and dropped) before reaching the user, and a page
    reads the viewer's attributes a few hundred times. A page open to visitors leaves
    a user that is not loaded yet alone."""
    user = getattr(request, "user", None)
    if not isinstance(user, LazyObject):
        return
    if user._wrapped is empty:
        if not load:
            return
        user.is_authenticated  # noqa: B018 - loads the user
    request.user = user._wrapped


def _error_response(request, exc: DomainError, fallback: str | None):
    if exc.status == 401:
        return redirect_to_login(request.get_full_path())
    if request.method != "POST":
        return render(
            request, "error.html", {"status": exc.status, "message": exc.message}, status=exc.status
        )
    target = back_url(request, default=fallback)
    # A field the submission carried (its value may be secret and not kept) gets the
    # message beside it on the page the browser returns to; anything else is a banner.
    field = error_field(exc, request.POST.keys())
    if field is None:
        messages.error(request, exc.message)
    keep_input(request, target, {field: exc.message} if field else {})
    return redirect(target)


def refused_form(request, form: forms.Form, target: str):
    """Send a POST whose form did not validate back to `target` (the page holding the
    form) with what it typed and each error beside its field."""
    errors = {name: " ".join(errs) for name, errs in form.errors.items() if name in form.fields}
    for message in form.non_field_errors():
        messages.error(request, message)
    keep_input(request, target, errors)
    return redirect(target)


def keep_input(request, target: str, errors: dict[str, str]) -> None:
    """Keep what a refused POST typed (never its secrets) and the errors of its fields
    for the form of `target`, which `bound_form` fills in when the browser gets there."""
    request.session[_KEPT_INPUT] = {
        "path": urlsplit(target).path,
        # Which form of that page: the one that posts where this POST went (a page
        # such as the settings page holds several).
        "action": request.path,
        "data": {k: v for k, v in request.POST.items() if k not in _SECRET_FIELDS},
        "errors": errors,
    }


def _is_safe(request, url: str | None) -> bool:
    return bool(url) and url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )


def safe_next(request) -> str | None:
    """The `next` field or parameter, if it points into this site."""
    for candidate in (request.POST.get("next"), request.GET.get("next")):
        if _is_safe(request, candidate):
            return candidate
    return None


def back_url(request, default: str | None = None) -> str:
    """Where a POST should land: its safe `next`, else the page it was sent from, else
    `default`, else the page itself."""
    referer = request.META.get("HTTP_REFERER")
    return (
        safe_next(request)
        or (referer if _is_safe(request, referer) else None)
        or default
        or request.get_full_path()
    )


def bound_form(
    request,
    form_class: type[forms.Form],
    *,
    initial: dict | None = None,
    action: str | None = None,
    **kwargs,
) -> forms.Form:
    """The submitted form on POST; on GET a fresh one, prefilled with what the person
    typed if their last submission of this form was refused by the rules, with the
    refusal beside its field. `action` is where the form posts, if not to this page."""
    if request.method == "POST":
        return form_class(request.POST, **kwargs)
    initial = dict(initial or {})
    kept = request.session.get(_KEPT_INPUT)
    errors: dict[str, str] = {}
    if (
        kept
        and kept.get("path") == request.path
        and kept.get("action", request.path) == (action or request.path)
    ):
        del request.session[_KEPT_INPUT]
        data = kept["data"]
        errors = kept.get("errors") or {}
        fields = form_class.base_fields
        # Only a submission of this form (not, say, a refused like sent back to the same
        # page) prefills it; an unchecked box is absent from the data, hence `in`.
        if any(name in data for name, f in fields.items() if not isinstance(f, forms.BooleanField)):
            for name, field in fields.items():
                if isinstance(field, forms.BooleanField):
                    initial[name] = name in data
                elif name in data:
                    initial[name] = data[name]
    form = form_class(initial=initial, **kwargs)
    for message in attach_errors(form, errors).values():
        messages.error(request, message)
    return form


@dataclass(frozen=True)
class Paged:
    """One page of rows with "newer"/"older" page numbers (None at either end)."""

    items: list
    number: int
    has_older: bool
    param: str = "page"

    @property
    def newer(self) -> int | None:
        return self.number - 1 if self.number > 0 else None

    @property
    def older(self) -> int | None:
        return self.number + 1 if self.has_older else None


def page_number(request, param: str = "page") -> int:
    raw = request.GET.get(param, "")
    # isdigit() is also true of "²" and of 5,000-digit numbers, which int() refuses.
    if not (raw.isascii() and raw.isdigit()):
        return 0
    digits = raw.lstrip("0") or "0"
    return _MAX_PAGE_NUMBER if len(digits) > 4 else min(int(digits), _MAX_PAGE_NUMBER)


def paged(
    request,
    fetch,
    *,
    param: str = "page",
    size: int = PAGE_SIZE,
    order: str = "desc",
    from_top: bool = False,
) -> Paged:
    """Call `fetch(Page)` for the requested page, asking for one extra row to learn
    whether an older page exists. `from_top` asks for everything up to the end of the
    page and slices here, for selectors whose `limit` shapes the result itself (the
    by-followees timeline takes `limit` authors, not `limit` rows after an offset)."""
    number = page_number(request, param)
    start = number * size
    if from_top:
        rows = list(fetch(Page(offset=0, limit=start + size + 1, order=order)))[start:]
    else:
        rows = list(fetch(Page(offset=start, limit=size + 1, order=order)))
    return Paged(items=rows[:size], number=number, has_older=len(rows) > size, param=param)
