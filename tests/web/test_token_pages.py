"""Personal access tokens on the settings page (docs/api.md, "Personal access
tokens"): made with a name and a scope, the secret shown once on the answer and never
again, listed with their last use, revoked with a click — and then refused at once."""

from __future__ import annotations

import re

import pytest
from rest_framework.test import APIClient

from sns.models import AccessToken

from .conftest import text_of

pytestmark = pytest.mark.django_db


def _bearer(secret: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return client


def test_make_use_and_revoke_a_token_from_settings(page_client, human):
    client = page_client(human)
    assert "Personal access tokens" in text_of(client.get("/settings"))
    made = client.post("/settings/tokens", {"token_name": "My assistant", "scope": "write"})
    assert made.status_code == 200 and made["Cache-Control"] == "no-store"
    secret = re.search(r"stgy_pat_[A-Za-z0-9_-]+", made.content.decode()).group(0)
    assert "shown only this once" in text_of(made)
    settings_page = client.get("/settings").content.decode()
    assert (
        "My assistant" in settings_page
        and secret not in settings_page
        and "never used" in settings_page
    )
    posted = _bearer(secret).post(
        "/api/posts", {"content": "from a script", "tags": []}, format="json"
    )
    assert posted.status_code == 201 and posted.json()["ownedBy"] == human.hex_id
    assert "last used" in text_of(client.get("/settings"))
    token = AccessToken.objects.get()
    response = client.post("/settings/tokens/revoke", {"token": token.hex_id}, follow=True)
    assert "Token revoked." in text_of(response) and not AccessToken.objects.exists()
    assert _bearer(secret).get("/api/posts").status_code == 401


def test_a_read_token_from_settings_only_reads(page_client, human):
    made = page_client(human).post(
        "/settings/tokens", {"token_name": "reader"}
    )  # the default scope
    secret = re.search(r"stgy_pat_[A-Za-z0-9_-]+", made.content.decode()).group(0)
    assert _bearer(secret).get("/api/posts").status_code == 200
    assert (
        _bearer(secret).post("/api/posts", {"content": "x", "tags": []}, format="json").status_code
        == 403
    )


def test_a_refused_token_is_explained_and_nobody_revokes_anothers(page_client, human, follower):
    client = page_client(human)
    response = client.post("/settings/tokens", {"token_name": "  "}, follow=True)
    assert "name is required" in text_of(response) and not AccessToken.objects.exists()
    client.post("/settings/tokens", {"token_name": "mine"})
    token = AccessToken.objects.get()
    refused = page_client(follower).post(
        "/settings/tokens/revoke", {"token": token.hex_id}, follow=True
    )
    assert "not found" in text_of(refused)
    assert AccessToken.objects.filter(pk=token.pk).exists()
