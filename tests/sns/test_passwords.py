"""Self-service passwords: not blank after trimming, not like the e-mail or nickname."""

from __future__ import annotations

import pytest

from sns.errors import InvalidInput
from sns.models import User
from tests.accounts.mailbox import sign_up_through_the_code
from tests.conftest import PASSWORD, login_client
from tests.web.account_steps import sign_up_on_the_pages

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("password", "message"),
    [
        (" " * 12, "password must not be blank"),
        ("\t \u3000 " * 4, "password must not be blank"),
        ("river.stone@example.com", "too similar to the email"),
        ("Riverstone Wanderer", "too similar to the nickname"),
    ],
)
def test_sign_up_refuses_blank_or_personal_passwords(password, message):
    with pytest.raises(InvalidInput) as refused:
        sign_up_through_the_code(
            email="river.stone@example.com", nickname="Riverstone Wanderer", password=password
        )
    assert message in refused.value.message.lower()
    assert not User.objects.filter(email="river.stone@example.com").exists()


def test_a_good_password_with_spaces_inside_is_kept_as_typed():
    user = sign_up_through_the_code(
        email="river.stone@example.com", nickname="Riverstone", password="  pale blue kettle  "
    )
    assert user.check_password("  pale blue kettle  ")


def test_changing_ones_own_password_to_ones_nickname_is_refused(human):
    client = login_client(human)
    response = client.put(
        f"/api/users/{human.hex_id}/password",
        {"password": human.nickname + "!!!", "currentPassword": PASSWORD},
        format="json",
    )
    assert response.status_code == 400 and "similar" in response.json()["error"]
    response = client.put(
        f"/api/users/{human.hex_id}/password",
        {"password": " " * 10, "currentPassword": PASSWORD},
        format="json",
    )
    assert response.status_code == 400 and "blank" in response.json()["error"]


def test_the_sign_up_page_says_why(client):
    response = sign_up_on_the_pages(
        client, "sky@example.com", nickname="Skylark", password="sky@example.com"
    )
    response = client.get(response["Location"])
    assert "too similar to the email" in response.content.decode().lower()
    assert not User.objects.filter(email="sky@example.com").exists()
