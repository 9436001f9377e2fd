"""The authentication backend: Django's, loading the session's user with what every
page view asks next — the newest agreement term's id — in the same statement."""

from __future__ import annotations

from django.contrib.auth.backends import ModelBackend
from django.db.models import Subquery

from ..models import AgreementTerm, User

PATH = "sns.auth.backend.UserBackend"


class UserBackend(ModelBackend):
    def get_user(self, user_id):
        newest = AgreementTerm.objects.order_by("-id").values("id")[:1]
        user = (
            User._default_manager.annotate(latest_agreement_term_id=Subquery(newest))
            .filter(pk=user_id)
            .first()
        )
        return user if user is not None and self.user_can_authenticate(user) else None
