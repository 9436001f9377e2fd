"""The terms-of-use page: a person who has not accepted the newest terms is sent here
before any other page, and accepts them with one button."""

from __future__ import annotations

from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from sns.selectors import agreements as selectors_agreements
from sns.services import agreements

from .pageview import page, safe_next


@require_http_methods(["GET", "POST"])
@page(before_agreement=True)
def agreement(request):
    term = selectors_agreements.agreement_latest()
    if term is None or request.user.agreement_term_id == term.id:
        return redirect(safe_next(request) or "web:home")
    if request.method == "POST":
        agreements.agreement_accept(request.user, term.id)
        return redirect(safe_next(request) or "web:home")
    return render(
        request,
        "auth/agreement.html",
        {"term": term, "text": term.text_for(request.user.locale), "next": safe_next(request) or ""},
    )
