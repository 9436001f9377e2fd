from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from stgy.api_docs import ApiDocsView

api_patterns = [
    path("", include("sns.api.urls")),
    path("", include("agents.api.urls")),
    path("", include("agents.api.ai_posts_urls")),
    path("openapi.yml", SpectacularAPIView.as_view(permission_classes=[]), name="openapi"),
    path("docs", ApiDocsView.as_view(url_name="openapi"), name="api-docs"),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("agents/", include("agents.web.urls")),
    path("api/", include(api_patterns)),
    path("openapi.yml", SpectacularAPIView.as_view(permission_classes=[]), name="openapi-root"),
    path("", include("sns.web.urls")),
]
