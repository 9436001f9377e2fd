"""Admins set passwords without the self-service rules, which only hold people to
their own (docs/accounts.md §6)."""

from __future__ import annotations

import pytest

from sns.models import User
from tests.conftest import login_client

pytestmark = pytest.mark.django_db


def test_an_admin_creates_a_user_with_any_non_blank_password(admin):
    client = login_client(admin)
    body = {"email": "demo@example.com", "nickname": "Demo", "password": "demo"}
    assert client.post("/api/users", body, format="json").status_code == 201
    assert User.objects.get(email="demo@example.com").check_password("demo")
    response = client.post("/api/users", {**body, "email": "b@example.com", "password": "   "}, format="json")
    assert response.status_code == 400 and response.json() == {"error": "password must not be blank"}


def test_an_admin_sets_a_short_password_a_person_could_not(admin, human):
    response = login_client(admin).put(f"/api/users/{human.hex_id}/password", {"password": "abc"}, format="json")
    assert response.status_code == 200
    human.refresh_from_db()
    response = login_client(human).put(
        f"/api/users/{human.hex_id}/password", {"password": "abc", "currentPassword": "abc"}, format="json"
    )
    assert response.status_code == 400 and "too short" in response.json()["error"]
