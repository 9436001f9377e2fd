"""A person who has not accepted the newest terms of use is asked to before any page."""

from __future__ import annotations

import json

import pytest

from sns.models import AgreementTerm, User
from sns.services import agreements
from tests.web.account_steps import sign_up_on_the_pages

pytestmark = pytest.mark.django_db


@pytest.fixture
def terms(admin):
    return agreements.agreement_term_put(
        admin, 0x10, [{"locale": "en", "text": "Be **kind**."}, {"locale": "ja", "text": "親切に。"}]
    )


def test_pages_send_a_person_to_the_terms_until_they_accept(page_client, human, terms):
    client = page_client(human)
    response = client.get("/users")
    assert response.status_code == 302 and response["Location"] == "/agreement?next=%2Fusers"
    page = client.get("/agreement?next=/users").content.decode()
    assert "<strong>kind</strong>" in page and 'value="/users"' in page
    response = client.post("/agreement", {"next": "/users"})
    assert response.status_code == 302 and response["Location"] == "/users"
    assert User.objects.get(pk=human.pk).agreement_term_id == terms.id
    assert client.get("/users").status_code == 200


def test_the_terms_show_in_the_persons_language(page_client, terms):
    from tests.factories import make_user

    person = make_user("Hana", locale="ja-JP")
    assert "親切に。" in page_client(person).get("/agreement").content.decode()


def test_a_new_version_asks_again(page_client, human, admin, terms):
    client = page_client(human)
    client.post("/agreement")
    assert client.get("/").status_code == 200
    agreements.agreement_term_put(admin, 0x20, [{"locale": "en", "text": "Be kinder."}])
    assert client.get("/")["Location"].startswith("/agreement")


def test_signing_up_accepts_the_terms_shown(page_client, terms):
    page = page_client().get("/signup").content.decode()
    assert "<strong>kind</strong>" in page
    response = sign_up_on_the_pages(
        page_client(), "new@example.com", nickname="Newcomer", password="a-fine-long-secret"
    )
    assert response.status_code == 302 and response["Location"] == "/"
    assert User.objects.get(email="new@example.com").agreement_term_id == terms.id


def test_the_admin_form_validates_through_the_rulebook(page_client, admin):
    client = page_client(admin)
    response = client.post("/admin/sns/agreementterm/add/", {"contents": json.dumps([{"locale": "ja", "text": "x"}])})
    assert response.status_code == 200 and "contents must include the en locale" in response.content.decode()
    assert not AgreementTerm.objects.exists()
    response = client.post("/admin/sns/agreementterm/add/", {"contents": json.dumps([{"locale": "en", "text": "ok"}])})
    assert response.status_code == 302
    assert AgreementTerm.objects.get().contents_list() == [{"locale": "en", "text": "ok"}]
