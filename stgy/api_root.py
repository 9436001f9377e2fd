"""The API at the root of a host of its own, for the original's scripts.

The original's edit-users, edit-posts, edit-agreement and user-actions scripts address
the API at the server root (`http://localhost:3100/posts`, `/auth`, `/users/{id}`),
where our API lives under `/api/` beside the web pages, whose paths (`/posts/...`,
`/users/...`) would collide. So the root is given to the API only on the hosts listed in
STGY_API_ROOT_HOSTS (`host:port` as the client sends it in Host, e.g. `localhost:3100`
for a second port the server also listens on): a request to such a host is resolved by
stgy/urls_api_root.py — the API at `/`, `/api/` and `/backend/`, no pages — and every
other host sees the site as before. Nothing else differs there: the same views,
authentication, CSRF rules and throttles (docs/operations.md, "The original's scripts").
"""

from __future__ import annotations

from django.conf import settings

API_ROOT_URLCONF = "stgy.urls_api_root"


def api_root_host(request) -> bool:
    hosts = settings.STGY_API_ROOT_HOSTS
    return bool(hosts) and request.get_host().lower() in hosts


class ApiRootHostMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if api_root_host(request):
            request.urlconf = API_ROOT_URLCONF
        return self.get_response(request)
