"""The OpenAPI document is generated from the views (drf-spectacular)."""

import pytest
from drf_spectacular.drainage import GENERATOR_STATS

pytestmark = pytest.mark.django_db


def test_openapi_document_names_the_api(api):
    GENERATOR_STATS.reset()
    response = api.get("/api/openapi.yml")
    assert response.status_code == 200
    text = response.content.decode()
    for path in ("/api/posts:", "/api/posts/{post_id}:", "/api/users/{user_id}/follow:", "/api/notifications/feed:"):
        assert path in text
    assert "session_id" in text


def test_sns_views_generate_without_warnings_or_errors():
    from drf_spectacular.generators import SchemaGenerator

    from sns.api.urls import urlpatterns

    GENERATOR_STATS.reset()
    schema = SchemaGenerator(patterns=urlpatterns).get_schema(request=None, public=True)
    assert "/posts/by-followees" in schema["paths"]
    assert (dict(GENERATOR_STATS._warn_cache), dict(GENERATOR_STATS._error_cache)) == ({}, {})
