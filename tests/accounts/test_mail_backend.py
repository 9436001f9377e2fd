"""The embedded mode's mail goes to the console and to a file (stgy/mail.py)."""

from __future__ import annotations

import pytest
from django.core import mail

from sns.core import mailer


def test_a_mail_lands_on_the_console_and_in_a_file(settings, tmp_path, capsys):
    settings.EMAIL_BACKEND = "stgy.mail.ConsoleAndFileEmailBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path / "mail")
    mailer.signup_code("reader@example.com", "246810")
    files = list((tmp_path / "mail").iterdir())
    assert len(files) == 1
    kept = files[0].read_text()
    assert "To: reader@example.com" in kept and "246810" in kept
    assert "246810" in capsys.readouterr().out


def test_a_failing_transport_is_logged_not_raised(settings, caplog):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", 9, 1
    mailer.reset_code("someone@example.com", "135790")
    assert "could not send" in caplog.text
    assert not getattr(mail, "outbox", [])


@pytest.mark.django_db
def test_the_default_sender_is_used(settings):
    mailer.signup_code("from@example.com", "111111")
    assert mail.outbox[-1].from_email == settings.DEFAULT_FROM_EMAIL
