"""Reads of the agreement terms (docs/api.md, agreement terms)."""

from __future__ import annotations

from ..models import AgreementTerm, User


def agreement_term_ids() -> list[int]:
    return list(AgreementTerm.objects.order_by("-id").values_list("id", flat=True))


def agreement_term_get(term_id: int) -> AgreementTerm | None:
    return AgreementTerm.objects.filter(pk=term_id).first()


def agreement_latest() -> AgreementTerm | None:
    return AgreementTerm.objects.order_by("-id").first()


def agreement_latest_id() -> int | None:
    return AgreementTerm.objects.order_by("-id").values_list("id", flat=True).first()


def agreement_required(user: User) -> int | None:
    """The id of the term `user` has yet to accept, or None (nothing to accept). The
    session's user arrives with the newest id already read (sns/auth/backend.py)."""
    if hasattr(user, "latest_agreement_term_id"):
        latest = user.latest_agreement_term_id
    else:
        latest = agreement_latest_id()
    if latest is None or user.agreement_term_id == latest:
        return None
    return latest
