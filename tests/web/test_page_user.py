"""A page puts the viewer itself in `request.user` in place of the lazy proxy
(sns/web/pageview.py `_unwrap_user`), and leaves a visitor's user unloaded where the
page is open to visitors."""

from __future__ import annotations

import pytest
from django.test import RequestFactory
from django.utils.functional import SimpleLazyObject

from sns.models import User
from sns.web.pageview import _unwrap_user
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def test_a_page_view_leaves_the_viewer_itself_in_the_request(page_client):
    amy = make_user("Amy")
    response = page_client(amy).get("/")
    assert response.status_code == 200
    viewer = response.wsgi_request.user
    assert type(viewer) is User and viewer.id == amy.id
    assert 'class="nav-me" title="Amy">Amy</a>' in response.content.decode()


def test_a_lazy_user_is_loaded_only_when_the_page_needs_it():
    amy = make_user("Amy")
    loads = []
    request = RequestFactory().get("/")

    def load():
        loads.append(1)
        return amy

    request.user = SimpleLazyObject(load)
    _unwrap_user(request, load=False)
    assert loads == [] and isinstance(request.user, SimpleLazyObject)
    _unwrap_user(request, load=True)
    assert loads == [1] and request.user is amy
    _unwrap_user(request, load=True)  # a plain user stays as it is
    assert request.user is amy

    request.user = SimpleLazyObject(load)
    request.user.is_authenticated  # noqa: B018 - loaded by the view before
    _unwrap_user(request, load=False)
    assert loads == [1, 1] and request.user is amy
