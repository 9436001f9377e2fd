from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path, re_path
from django.views.generic.base import RedirectView
from drf_spectacular.views import SpectacularAPIView

from agents.web import memory_versions_page, person_memory_page
from agents.web.memory_page import memory as ai_memory_page
from sns.api.errors import api_not_found
from stgy.api_docs import ApiDocsView

api_patterns = [
    path("", include("sns.api.urls")),
    path("", include("agents.api.urls")),
    path("", include("agents.api.ai_posts_urls")),
    path("", include("stgy.ops.urls")),
    path("", include("sns.api.media_urls")),
    path("openapi.yml", SpectacularAPIView.as_view(permission_classes=[]), name="openapi"),
    path("docs", ApiDocsView.as_view(url_name="openapi"), name="api-docs"),
    re_path(r"", api_not_found),  # last: every other /api/ path
]

# A lost database connection is a 503, anything else a 500, in JSON on the API.
handler500 = "stgy.server_errors.server_error"

urlpatterns = [
    # Browsers ask for /favicon.ico on pages that name no icon (admin, the API reference).
    path("favicon.ico", RedirectView.as_view(url=static("favicon.svg"), permanent=True)),
    path("admin/", admin.site.urls),
    path("agents/", include("agents.web.urls")),
    # Among the users' pages, but the agents app's: sns links to it only by name.
    path("users/<str:user_hex>/memory", ai_memory_page, name="ai-memory"),
    # What AI users remember about me: a settings page, but the agents app's (the
    # settings page links to it by name).
    path("settings/ai-memory", person_memory_page.ai_memory_of_me, name="my-ai-memory"),
    path("settings/ai-memory/forget", person_memory_page.forget, name="my-ai-memory-forget"),
    path("settings/ai-memory/setting", person_memory_page.setting, name="my-ai-memory-setting"),
    path("users/<str:user_hex>/memory/hold", memory_versions_page.hold, name="ai-memory-hold"),
    path(
        "users/<str:user_hex>/memory/interest-versions/<int:version_id>/restore",
        memory_versions_page.interest_restore, name="ai-memory-interest-restore",
    ),
    path("users/<str:user_hex>/memory/peers/<str:peer_hex>", memory_versions_page.peer_versions, name="ai-memory-peer"),
    path(
        "users/<str:user_hex>/memory/peers/<str:peer_hex>/versions/<int:version_id>/restore",
        memory_versions_page.peer_restore, name="ai-memory-peer-restore",
    ),
    path("api/", include(api_patterns)),
    path("storage/", include("sns.api.storage_urls")),  # the local store's uploads and files (docs/media.md)
    # The same API under the path the original's frontend and import tools use behind
    # their proxy; names namespaced, so reverse() keeps giving /api/ URLs.
    path("backend/", include((api_patterns, "backend"))),
    path("openapi.yml", SpectacularAPIView.as_view(permission_classes=[]), name="openapi-root"),
    path("", include("sns.web.urls")),
]
