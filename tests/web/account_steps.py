"""The sign-up pages walked through with a test client, the code read from the mail."""

from __future__ import annotations

from tests.accounts.mailbox import code_sent_to


def sign_up_on_the_pages(client, email, *, nickname, password, locale="", timezone=""):
    """Address, code, nickname and password; returns the last step's response."""
    response = client.post("/signup", {"email": email, "locale": locale, "timezone": timezone})
    assert response.status_code == 302 and response["Location"] == "/signup/code", response
    response = client.post("/signup/code", {"code": code_sent_to(email.strip().lower())})
    assert response.status_code == 302 and response["Location"] == "/signup/finish", response
    return client.post("/signup/finish", {"nickname": nickname, "password": password})
