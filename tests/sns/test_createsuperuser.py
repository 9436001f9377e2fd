import pytest
from django.core.management import call_command

from sns.models import User


@pytest.mark.django_db
def test_createsuperuser_noinput_reads_the_environment(monkeypatch):
    monkeypatch.setenv("DJANGO_SUPERUSER_EMAIL", "Root@Example.com")
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", "a-long-admin-password")
    monkeypatch.setenv("DJANGO_SUPERUSER_NICKNAME", "Root")
    call_command("createsuperuser", interactive=False, verbosity=0)
    admin = User.objects.get()
    assert admin.email == "root@example.com"
    assert admin.nickname == "Root"
    assert admin.is_admin and admin.is_staff and admin.is_superuser
    assert admin.check_password("a-long-admin-password")


class _Terminal:
    """createsuperuser only prompts when stdin is a terminal."""

    def isatty(self):
        return True


@pytest.mark.django_db
def test_createsuperuser_interactive_asks_for_the_nickname(monkeypatch):
    answers = iter(["admin@example.com", "Boss"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    monkeypatch.setattr("getpass.getpass", lambda prompt="": "a-long-admin-password")
    call_command("createsuperuser", interactive=True, verbosity=0, stdin=_Terminal())
    admin = User.objects.get()
    assert (admin.email, admin.nickname, admin.is_admin) == ("admin@example.com", "Boss", True)
