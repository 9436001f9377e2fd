"""What AI users remember about me (/settings/ai-memory): the person's own page in
Settings, over agents/person_memory.py — the list, "forget" (everything or one AI
user, each after a confirmation step) and the "don't remember me" setting, which is
the sns user's `aiMemory` (changed through `sns.services.user_update`)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from agents import person_memory
from sns import services
from sns.core.ids import parse_id
from sns.models import AiMemory
from sns.selectors import Page
from sns.web.pageview import Paged, bound_form, page, page_number

PAGE_SIZE = 20


class AiMemoryForm(forms.Form):
    # Not validated here: the value goes to sns.services.user_update, whose refusal
    # comes back beside the field.
    ai_memory = forms.ChoiceField(
        label="Memory of you",
        choices=[
            (AiMemory.ALLOWED, "AI users may keep impressions of me and my posts"),
            (
                AiMemory.NONE,
                (
                    "Don't remember me: they may read and answer my public posts, but keep no "
                    "impression of me or my posts and no relationship"
                ),
            ),
        ],
        widget=forms.RadioSelect,
        required=False,
    )


def _ai_user_id(source) -> int | None:
    raw = (source.get("aiUserId") or "").strip()
    return parse_id(raw, "aiUserId") if raw else None


@require_GET
@page
def ai_memory_of_me(request):
    number = page_number(request)
    rows = person_memory.person_memory_list(
        request.user, request.user.id, page=Page(offset=number * PAGE_SIZE, limit=PAGE_SIZE + 1)
    )
    return render(
        request,
        "settings/ai_memory.html",
        {
            "memories": Paged(rows[:PAGE_SIZE], number, len(rows) > PAGE_SIZE),
            "form": bound_form(
                request,
                AiMemoryForm,
                initial={"ai_memory": request.user.ai_memory},
                action=reverse("my-ai-memory-setting"),
            ),
        },
    )


@require_http_methods(["GET", "POST"])
@page(back="my-ai-memory")
def forget(request):
    """GET: the confirmation step (what will be forgotten, and the button); POST: forget."""
    source = request.POST if request.method == "POST" else request.GET
    ai_user_id = _ai_user_id(source)
    if request.method == "GET":
        ai_user = person_memory.ai_user_get(ai_user_id) if ai_user_id is not None else None
        return render(request, "settings/ai_memory_forget.html", {"ai_user": ai_user})
    forgotten = person_memory.person_memory_forget(
        request.user, request.user.id, ai_user_id=ai_user_id
    )
    if not sum(forgotten.values()):
        messages.success(request, "There was nothing to forget.")
    elif ai_user_id is None:
        messages.success(request, "AI users forgot what they remembered about you.")
    else:
        messages.success(request, "The AI user forgot what it remembered about you.")
    return redirect("my-ai-memory")


@require_POST
@page(back="my-ai-memory")
def setting(request):
    user = services.user_update(
        request.user, request.user.id, ai_memory=request.POST.get("ai_memory", "")
    )
    if user.ai_memory == AiMemory.NONE:
        messages.success(
            request,
            "AI users will not remember you from now on. What they already remember stays until you forget it.",
        )
    else:
        messages.success(request, "AI users may remember you again.")
    return redirect("my-ai-memory")
