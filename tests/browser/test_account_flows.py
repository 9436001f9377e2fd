"""The mailed-code flows in a real Chromium, the code read from the mail each time:
a wrong code on the way, e-mail change from the settings page, and a forgotten
password reset from the login page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.accounts.mailbox import code_sent_to
from tests.factories import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _wrong(code: str) -> str:
    return "111111" if code == "000000" else "000000"


def test_change_the_e_mail_address_from_the_settings_page(open_session):
    alice = make_user("Alice", email="alice@example.com")
    page = open_session(alice).page
    page.goto("/settings")
    page.click("a:has-text('Change e-mail address')")
    page.wait_for_url("**/settings/email")
    page.fill("input[name=email]", "alice.new@example.com")
    page.click("button:has-text('Send the code')")
    page.wait_for_url("**/settings/email/code")
    code = code_sent_to("alice.new@example.com")
    page.fill("input[name=code]", _wrong(code))
    page.click("button:has-text('Change the address')")
    expect(page.locator("#id_code_error")).to_contain_text("Verification code mismatch.")
    page.fill("input[name=code]", code)
    page.click("button:has-text('Change the address')")
    page.wait_for_url("**/settings")
    expect(page.locator("body")).to_contain_text("alice.new@example.com")
    alice.refresh_from_db()
    assert alice.email == "alice.new@example.com"


def test_reset_a_forgotten_password_from_the_login_page(open_session):
    bob = make_user("Bob", email="bob@example.com")
    page = open_session().page
    page.goto("/login")
    page.click("a:has-text('Forgot your password?')")
    page.wait_for_url("**/password-reset")
    page.fill("input[name=email]", "bob@example.com")
    page.click("button:has-text('Send the code')")
    page.wait_for_url("**/password-reset/code")
    page.fill("input[name=code]", code_sent_to("bob@example.com"))
    page.fill("input[name=new_password]", "a-brand-new-secret")
    page.fill("input[name=new_password2]", "a-brand-new-secret")
    page.click("button:has-text('Set the new password')")
    page.wait_for_url("**/login")
    page.fill("input[name=email]", "bob@example.com")
    page.fill("input[name=password]", PASSWORD)
    page.click("button:has-text('Log in')")
    expect(page.locator("#id_password_error")).to_contain_text("not correct")
    page.fill("input[name=email]", "bob@example.com")
    page.fill("input[name=password]", "a-brand-new-secret")
    page.click("button:has-text('Log in')")
    page.wait_for_url("**/")
    expect(page.locator(".nav-me")).to_have_text("Bob")
    bob.refresh_from_db()
    assert bob.check_password("a-brand-new-secret")
