"""The personal access tokens part of the settings page (docs/api.md, "Personal access
tokens"; docs/mcp.md): make one, see its secret once, revoke any."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from sns.core.ids import parse_id
from sns.selectors.tokens import user_tokens
from sns.services import tokens as token_services

from .pageview import page


def settings_context(user) -> dict:
    return {"access_tokens": user_tokens(user, user.id)}


@require_POST
@page(back="web:settings")
def token_create(request):
    """The secret is shown on the answer to this POST and nowhere else: not stored, not
    put in a message (messages may travel in a cookie), not redirected with."""
    scope = request.POST.get("scope", "read")
    # Anything but the two choices goes to the service as it is, which refuses it.
    scopes = {"read": ["read"], "write": ["read", "write"]}.get(scope, [scope])
    # The field is "token_name", not "name": a refusal ("name is required") then shows
    # as the page's banner rather than beside a field the settings form does not have.
    name = request.POST.get("token_name", "")
    token, secret = token_services.token_create(
        request.user, request.user.id, name=name, scopes=scopes
    )
    response = render(request, "settings/token_created.html", {"token": token, "secret": secret})
    response["Cache-Control"] = "no-store"
    return response


@require_POST
@page(back="web:settings")
def token_revoke(request):
    token_id = parse_id(request.POST.get("token", ""), "token")
    token_services.token_revoke(request.user, request.user.id, token_id)
    messages.success(request, "Token revoked.")
    return redirect("web:settings")
