"""Direct messages: the inbox (Conversations / Requests), a conversation with its
compose box, accept and delete for requests, reporting a message."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from sns.selectors import messages as selectors_messages
from sns.core.errors import InvalidInput
from sns.core.ids import id_to_hex, parse_id
from sns.selectors import Page
from sns.services import messages as message_services

from .message_forms import MessageForm, ReportForm, StopForm
from .pageview import bound_form, page, page_number, paged

CONVERSATION_PAGE_SIZE = 50


def _user_id(user_hex: str) -> int:
    return parse_id(user_hex, "user id")


@require_GET
@page
def inbox(request):
    tab = "requests" if request.GET.get("tab") == "requests" else "inbox"
    viewer = request.user
    rows = paged(
        request, lambda p: selectors_messages.conversations_list(viewer, folder=tab, page=p)
    )
    return render(
        request,
        "messages/inbox.html",
        {
            "tab": tab,
            "conversations": rows,
            "folder_unread": selectors_messages.messages_unread_counts(viewer.id),
        },
    )


@require_http_methods(["GET", "POST"])
@page
def conversation(request, user_hex):
    viewer = request.user
    peer_id = _user_id(user_hex)
    if peer_id == viewer.id:
        raise InvalidInput("cannot message yourself")
    form = bound_form(request, MessageForm)
    if request.method == "POST" and form.is_valid():
        message_services.message_send(viewer, peer_id, content=form.cleaned_data["content"])
        return redirect("web:conversation", user_hex=user_hex)
    number = page_number(request)
    size = CONVERSATION_PAGE_SIZE
    view = message_services.conversation_read(
        viewer, peer_id, page=Page(offset=number * size, limit=size + 1)
    )
    shown = view.messages[:size]
    return render(
        request,
        "messages/conversation.html",
        {
            "peer": view.peer,
            "is_request": view.is_request,
            # Oldest at the top, as a conversation reads.
            "items": [(m, view.sender_of(m)) for m in reversed(shown)],
            "older": number + 1 if len(view.messages) > size else None,
            "newer": number - 1 if number > 0 else None,
            "form": form,
            "report_form": ReportForm(),
            "stop_form": StopForm(),
            "report_limit": settings.STGY_MESSAGE_REPORT_REASON_LENGTH_LIMIT,
            # The newest page polls for a message newer than it shows (docs/pages.md §6).
            "live_after": id_to_hex(max((m.id for m in shown), default=0)) if number == 0 else None,
        },
    )


@require_POST
@page(back="web:conversation")
def accept(request, user_hex):
    message_services.conversation_accept(request.user, _user_id(user_hex))
    messages.success(request, "Request accepted.")
    return redirect("web:conversation", user_hex=user_hex)


@require_POST
@page(back="web:conversation")
def delete(request, user_hex):
    message_services.conversation_hide(request.user, _user_id(user_hex))
    messages.success(request, "Conversation deleted for you.")
    return redirect("web:messages")


@require_POST
@page
def report(request, user_hex, message_hex):
    message_services.message_report(
        request.user, parse_id(message_hex, "message id"), reason=request.POST.get("reason")
    )
    messages.success(request, "Thank you. The message was reported to the moderators.")
    return redirect(reverse("web:conversation", args=[user_hex]))
