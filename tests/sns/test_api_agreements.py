"""/agreement-terms and POST /users/agreement/{id} (sns/api/agreement_views.py)."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from sns.models import AgreementTerm, User
from tests.conftest import login_client
from tests.factories import make_user

pytestmark = pytest.mark.django_db
EN = {"locale": "en", "text": "Be kind."}
JA = {"locale": "ja_jp", "text": "親切に。"}


def put(client, term_id: str, body):
    return client.post(f"/api/agreement-terms/{term_id}", json.dumps(body), content_type="application/json")


def test_reading_terms_needs_no_login_and_starts_empty(api):
    assert api.get("/api/agreement-terms").json() == []
    response = api.get("/api/agreement-terms/latest")
    assert response.status_code == 404 and response.json() == {"error": "not found"}
    assert api.get("/api/agreement-terms/zz").json() == {"error": "invalid id"}


def test_admins_write_versions_and_everyone_reads_them(api, admin, human):
    client = login_client(admin)
    first = put(client, "0000000000000010", [EN])
    assert first.status_code == 200
    assert first.json() == {"id": "0000000000000010", "contents": [EN]}
    second = put(client, "0000000000000020", [EN, JA])
    assert second.json()["contents"][1] == {"locale": "ja-JP", "text": "親切に。"}
    assert api.get("/api/agreement-terms").json() == ["0000000000000020", "0000000000000010"]
    assert api.get("/api/agreement-terms/latest").json()["id"] == "0000000000000020"
    assert api.get("/api/agreement-terms/10").json()["contents"] == [EN]
    # Writing the same id again replaces that version.
    put(client, "0000000000000010", [{"locale": "en", "text": "Be very kind."}])
    assert api.get("/api/agreement-terms/10").json()["contents"][0]["text"] == "Be very kind."
    assert client.delete("/api/agreement-terms/10").json() == {"result": "ok"}
    assert client.delete("/api/agreement-terms/10").status_code == 404
    assert AgreementTerm.objects.count() == 1


@pytest.mark.parametrize("who", ["anonymous", "member"])
def test_only_admins_write(who, human):
    client = Client() if who == "anonymous" else login_client(human)
    for response in (put(client, "zz", [EN]), client.delete("/api/agreement-terms/10")):
        assert response.status_code == 403 and response.json() == {"error": "admin only"}
    assert not AgreementTerm.objects.exists()


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"locale": "en"}, "contents must be a non-empty array"),
        ([], "contents must be a non-empty array"),
        (["en"], "contents[0] must be an object"),
        ([{"locale": "en", "text": "x", "extra": 1}], "contents[0] must contain only locale and text"),
        ([{"locale": 1, "text": "x"}], "contents[0].locale must be a string"),
        ([{"locale": "en", "text": 2}], "contents[0].text must be a string"),
        ([EN, {"locale": "not a locale!", "text": "x"}], "contents[1].locale is invalid"),
        ([EN, {"locale": "EN", "text": "again"}], "duplicate locale: en"),
        ([{"locale": "en", "text": "   "}], "contents[0].text must not be empty"),
        ([{"locale": "ja", "text": "x"}], "contents must include the en locale"),
        ([{"locale": "en", "text": "x" * 262_200}], "contents exceeds 262144 characters"),
        # The API's parser refuses NUL wherever it is, naming the key.
        ([{"locale": "en", "text": "bad\u0000"}], "text contains invalid characters"),
    ],
)
def test_contents_are_validated(admin, body, message):
    response = put(login_client(admin), "0000000000000010", body)
    assert response.status_code == 400 and response.json() == {"error": message}
    assert not AgreementTerm.objects.exists()


def test_a_user_accepts_the_newest_term_and_the_session_says_so(admin, human):
    put(login_client(admin), "0000000000000010", [EN])
    client = login_client(human)
    assert client.get("/api/auth").json()["requiredAgreementTermId"] == "0000000000000010"
    put(login_client(admin), "0000000000000020", [EN])
    assert client.get("/api/auth").json()["requiredAgreementTermId"] == "0000000000000020"
    response = client.post("/api/users/agreement/0000000000000010")
    assert response.status_code == 409 and response.json() == {"error": "agreement term is not latest"}
    assert client.post("/api/users/agreement/0000000000000020").json() == {"result": "ok"}
    assert User.objects.get(pk=human.pk).agreement_term_id == 0x20
    assert client.get("/api/auth").json()["requiredAgreementTermId"] is None
    assert client.post("/api/users/agreement/zz").json() == {"error": "invalid id"}
    assert Client().post("/api/users/agreement/20", content_type="application/json").status_code == 401


def test_no_terms_means_nothing_to_accept(human):
    client = login_client(human)
    assert client.get("/api/auth").json()["requiredAgreementTermId"] is None
    assert client.post("/api/users/agreement/10").status_code == 409
