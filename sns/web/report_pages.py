"""Report a post or a reply to the moderators (docs/pages.md §3): a page that shows what
is being reported and asks why — the confirmation step — then sends the report."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from sns.core.errors import InvalidInput
from sns.core.ids import parse_id
from sns.reads.access import access_post
from sns.services import reports as report_services

from .forms import PostReportForm
from .pageview import bound_form, page


@require_http_methods(["GET", "POST"])
@page
def post_report(request, post_hex):
    post = access_post(request.user, parse_id(post_hex, "post id"))
    if post.owner_id == request.user.id:
        # The same refusal post_report gives, before a form that could not be sent.
        raise InvalidInput("cannot report your own post")
    form = bound_form(request, PostReportForm)
    if request.method == "POST" and form.is_valid():
        report_services.post_report(
            request.user, post.id, reason=form.cleaned_data["reason"], note=form.cleaned_data["note"]
        )
        what = "reply" if post.reply_to is not None else "post"
        messages.success(request, f"Thank you. The {what} was reported to the moderators.")
        return redirect(reverse("web:post", args=[post.hex_id]))
    return render(request, "posts/report.html", {"post": post, "form": form})
