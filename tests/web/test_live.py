"""GET /live: the counts the pages refresh without a reload — new posts on the viewer's
Following or Everyone tab since the newest one shown, unread notifications and
messages; JSON errors for a stranger or a bad id."""

from __future__ import annotations

import pytest
from django.test import Client, TestCase

from sns import services
from sns.models.reports import Report
from sns.services import messages, reports
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_new_posts_per_tab_since_the_newest_shown():
    mina, kai, stranger = make_user("Mina"), make_user("Kai"), make_user("Stranger")
    services.follow_add(mina, kai.id)
    shown = make_post(kai, "Shown already")
    make_post(kai, "New from a followee")
    make_post(mina, "New of my own")
    make_post(stranger, "New from a stranger")
    client = client_of(mina)
    following = client.get(f"/live?tab=following&after={shown.hex_id}").json()
    everyone = client.get(f"/live?tab=everyone&after={shown.hex_id}").json()
    assert following["newPosts"] == 2 and everyone["newPosts"] == 3
    assert client.get(f"/live?tab=foryou&after={shown.hex_id}").json()["newPosts"] == 0
    assert client.get("/live").json()["newPosts"] == 0  # no timeline on the page


def test_unread_counts():
    mina, kai = make_user("Mina"), make_user("Kai")
    services.follow_add(mina, kai.id)  # so Kai's message lands in the inbox, not Requests
    post = make_post(mina, "Like me")
    with TestCase.captureOnCommitCallbacks(execute=True):  # notifications are written on commit
        services.like_add(kai, post.id)
        messages.message_send(kai, mina.id, content="Hi Mina")
    data = client_of(mina).get("/live").json()
    assert data["unreadNotifications"] >= 1 and data["unreadMessages"] == 1


def test_errors_are_json():
    assert Client().get("/live").status_code == 401
    response = client_of(make_user("Mina")).get("/live?after=zz")
    assert response.status_code == 400 and "error" in response.json()


def test_the_new_posts_count_is_capped(settings):
    settings.STGY_HOURLY_POSTS_COUNT_LIMIT = 1000
    mina = make_user("Mina")
    first = make_post(mina, "First")
    for i in range(101):
        make_post(mina, f"Post {i}")
    assert client_of(mina).get(f"/live?tab=everyone&after={first.hex_id}").json()["newPosts"] == 100


def test_an_admin_gets_the_open_reports_count_and_no_one_else_does():
    admin, person = make_user("Admin", is_admin=True), make_user("Person")
    reports.post_report(make_user("Reporter"), make_post(person, "Reported").id, reason="spam")
    assert client_of(admin).get("/live").json()["openReports"] == 1
    assert "openReports" not in client_of(person).get("/live").json()
    reports.reports_resolve(admin, list(Report.objects.values_list("id", flat=True)))
    assert client_of(admin).get("/live").json()["openReports"] == 0
