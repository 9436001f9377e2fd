"""GET /live: the counts the pages refresh without a reload (sns/selectors/live.py),
as JSON for static/stgy.js; a page without JavaScript simply shows them on its next load."""

from __future__ import annotations

from django.http import JsonResponse
from django.views.decorators.http import require_GET

from sns.errors import InvalidInput
from sns.ids import parse_id
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
