"""Self-service passwords: not blank after trimming, not like the e-mail or nickname."""

from __future__ import annotations

import pytest

from sns.core.errors import InvalidInput
from sns.models import User
from tests.accounts.mailbox import sign_up_through_the_code
from tests.clients import APIClient
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


@pytest.mark.parametrize(
    ("email", "nickname", "password", "message"),
    [
        # Django's ratio check alone let these through.
        ("j.smith@bigcorporation.example", "Jay", "jsmith2024!", "too similar to the email"),
        ("river.stone@example.com", "Wanderer", "WandererWanderer", "too similar to the nickname"),
        ("sakura@example.jp", "さくら", "さくらさくら12", "too similar to the nickname"),
    ],
)
def test_passwords_built_from_the_address_or_the_nickname_are_refused(
    email, nickname, password, message
):
    with pytest.raises(InvalidInput) as refused:
        sign_up_through_the_code(email=email, nickname=nickname, password=password)
    assert message in refused.value.message.lower()


@pytest.mark.parametrize(
    "password", ["wanderer-kettle-blue", "streetlight-99", "さくら色の空が好き"]
)
def test_a_name_inside_a_password_of_its_own_is_fine(password):
    user = sign_up_through_the_code(
        email="sakura.wanderer@example.com", nickname="Wanderer", password=password
    )
    assert user.check_password(password)


def test_every_interface_holds_to_the_one_rule(client, human):
    """The API's sign-up, the sign-up page and one's own password change."""
    response = APIClient().post(
        "/api/signup/start", {"email": "j.smith@bigcorporation.example", "password": "jsmith2024!"},
        format="json",
    )
    assert response.status_code == 400 and "too similar to the email" in response.json()["error"]
    response = sign_up_on_the_pages(
        client, "newcomer@example.com", nickname="Skylark", password="SkylarkSkylark"
    )
    response = client.get(response["Location"])
    assert "too similar to the nickname" in response.content.decode().lower()
    response = login_client(human).put(
        f"/api/users/{human.hex_id}/password",
        {"password": human.nickname * 2, "currentPassword": PASSWORD},
        format="json",
    )
    assert response.status_code == 400 and "similar" in response.json()["error"]
