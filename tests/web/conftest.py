"""Helpers for the page tests (the Django test client; no browser)."""

from __future__ import annotations

import pytest
from django.test import Client


@pytest.fixture
def page_client():
    """A client that logs in as the given user: `page_client(user)`."""

    def make(user=None, *, csrf: bool = False) -> Client:
        client = Client(enforce_csrf_checks=csrf)
        if user is not None:
            client.force_login(user)
        return client

    return make


def text_of(response) -> str:
    return response.content.decode("utf-8")


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []
