"""Settings (profile, language, time zone, block strangers) and notifications."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.conf import settings as django_settings
from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from sns import selectors, services

from .boundary_pages import settings_context as boundary_settings_context
from .forms import LOCALE_CHOICES, ProfileForm
from .mute_pages import settings_context as mute_settings_context
from .pageview import bound_form, page
from .publication_pages import settings_context as publication_settings_context
from .token_pages import settings_context as token_settings_context

COMMON_TIMEZONES = [
    "UTC",
    "Asia/Tokyo",
    "Asia/Seoul",
    "Asia/Shanghai",
    "Asia/Kolkata",
    "Europe/London",
    "Europe/Paris",
    "Europe/Berlin",
    "America/New_York",
    "America/Chicago",
    "America/Los_Angeles",
    "America/Sao_Paulo",
    "Australia/Sydney",
]


@require_http_methods(["GET", "POST"])
@page
def settings_page(request):
    user = request.user
    initial = {
        "nickname": user.nickname,
        "introduction": user.introduction,
        "locale": user.locale,
        "timezone": user.timezone,
        "block_strangers": user.block_strangers,
        "ai_personality": user.ai_personality or "",
    }
    form = bound_form(request, ProfileForm, initial=initial, is_ai=user.is_ai)
    if request.method == "POST" and form.is_valid():
        services.user_update(user, user.id, **form.service_fields())
        messages.success(request, "Settings saved.")
        return redirect("web:settings")
    return render(
        request,
        "settings/settings.html",
        {
            "form": form,
            "locale_choices": LOCALE_CHOICES,
            "timezones": COMMON_TIMEZONES,
            **boundary_settings_context(user),
            **mute_settings_context(user),
            **publication_settings_context(request),
            **token_settings_context(user),
        },
    )


_VERBS = {
    "follow": "followed you",
    "like": "liked your post",
    "reply": "replied to your post",
    "mention": "mentioned you",
    "name-mention": "mentioned you",
    "message": "sent you a message",
    "message-request": "sent you a message request",
    "repost": "reposted your post",
    "quote": "quoted your post",
}


@dataclass
class NotificationView:
    """One notification as a sentence: "<actors> liked your post", with links."""

    row: object
    kind: str
    actors: list[dict] = field(default_factory=list)
    others: int = 0
    url: str = ""
    snippet: str = ""

    @property
    def verb(self) -> str:
        return _VERBS.get(self.kind, self.kind)


def _describe(notification) -> NotificationView:
    kind, _, post_hex = notification.slot.partition(":")
    payload = selectors.notification_public_payload(notification)
    records = [r for r in payload.get("records", []) if isinstance(r, dict)]
    actors = [
        {"nickname": r.get("userNickname", ""), "url": reverse("web:profile", args=[r["userId"]])}
        for r in records[:2]
        if r.get("userId")
    ]
    newest = records[0] if records else {}
    if kind == "follow":
        url = actors[0]["url"] if actors else ""
    elif kind in ("message", "message-request"):
        url = reverse("web:messages") + ("?tab=requests" if kind == "message-request" else "")
    elif kind == "quote" and newest.get("postId"):
        url = reverse("web:post", args=[newest["postId"]])
    elif kind == "reply" and newest.get("postId"):
        url = reverse("web:post", args=[post_hex]) + f"#post-{newest['postId']}"
    else:
        url = reverse("web:post", args=[post_hex]) if post_hex else ""
    return NotificationView(
        row=notification,
        kind=kind,
        actors=actors,
        others=max(0, int(payload.get("countUsers", len(records))) - len(actors)),
        url=url,
        snippet=newest.get("postSnippet", ""),
    )


@require_GET
@page
def notifications(request):
    rows = (
        selectors.notifications_feed(
            request.user, shown=django_settings.STGY_NOTIFICATION_SHOWN_RECORDS
        )
        or []
    )
    return render(
        request, "notifications/list.html", {"notifications": [_describe(n) for n in rows]}
    )


@require_POST
@page(back="web:notifications")
def notification_mark(request):
    services.notification_mark(
        request.user,
        slot=request.POST.get("slot"),
        term=request.POST.get("term"),
        is_read=request.POST.get("is_read", "1") == "1",
    )
    return redirect("web:notifications")


@require_POST
@page(back="web:notifications")
def notifications_mark_all(request):
    services.notification_mark_all(request.user, is_read=True)
    messages.success(request, "All notifications marked as read.")
    return redirect("web:notifications")
