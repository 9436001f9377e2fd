"""manage.py ensure_admin, with the fixed id the original's seed data uses."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from sns.models import User

pytestmark = pytest.mark.django_db


def test_creates_the_admin_once_with_a_fixed_id():
    out = StringIO()
    call_command("ensure_admin", "--id", "0000000000000001", "--email", "root@stgy.jp", stdout=out)
    admin = User.objects.get(email="root@stgy.jp")
    assert admin.id == 1 and admin.is_admin and admin.hex_id == "0000000000000001"
    call_command("ensure_admin", "--id", "0000000000000001", stdout=out)
    assert "an admin exists already" in out.getvalue()
    assert User.objects.count() == 1


def test_without_an_id_one_is_made():
    call_command("ensure_admin", stdout=StringIO())
    assert User.objects.get(is_admin=True).id > 1 << 40


@pytest.mark.parametrize("bad", ["zz", "1" * 17])
def test_a_malformed_id_is_refused(bad):
    with pytest.raises(CommandError):
        call_command("ensure_admin", "--id", bad, stdout=StringIO())
    assert not User.objects.exists()
