"""GET /live: the counts the pages refresh without a reload (sns/selectors/live.py),
as JSON for static/stgy.js; a page without JavaScript simply shows them on its next load.
GET /live/replies/<post> and /live/messages/<user>: whether a post page's thread or a
message thread has something newer than it shows (docs/pages.md §6)."""

from __future__ import annotations

from django.http import JsonResponse
from django.views.decorators.http import require_GET

from sns.core.errors import InvalidInput
from sns.core.ids import id_to_hex, parse_id
from sns.reads import live_marks
from sns.selectors.authors import authors_parse
from sns.selectors.live import live_counts


@require_GET
def live(request):
    if not request.user.is_authenticated:
        return JsonResponse({"error": "login required"}, status=401)
    raw = request.GET.get("after", "")
    try:
        after = parse_id(raw) if raw else None
        authors = authors_parse(request.GET.get("authors"))
    except InvalidInput as exc:
        return JsonResponse({"error": exc.message}, status=400)
    tab = request.GET.get("tab", "following")
    response = JsonResponse(live_counts(request.user, tab, after, authors=authors))
    response["Cache-Control"] = "no-store"
    return response


def _newer(request, read) -> JsonResponse:
    """{"changed": whether the mark is past `after`, "newest": the mark}: one cache read
    (sns/reads/live_marks.py), what a post page or a message thread polls."""
    if not request.user.is_authenticated:
        return JsonResponse({"error": "login required"}, status=401)
    try:
        raw = request.GET.get("after", "")
        after = parse_id(raw, "after") if raw else 0
        newest = read()
    except InvalidInput as exc:
        return JsonResponse({"error": exc.message}, status=400)
    response = JsonResponse({"changed": newest > after, "newest": id_to_hex(newest)})
    response["Cache-Control"] = "no-store"
    return response


@require_GET
def live_replies(request, post_hex):
    """Whether a reply under the post is newer than `after`."""
    return _newer(request, lambda: live_marks.replies_newest(parse_id(post_hex, "post id")))


@require_GET
def live_messages(request, user_hex):
    """Whether a message between the viewer and the user is newer than `after`: the pair
    is the viewer's own, so no one learns of another's conversation."""
    return _newer(request, lambda: live_marks.conversation_newest(request.user.id, parse_id(user_hex, "user id")))
