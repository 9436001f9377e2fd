"""Agreement terms: admins write versions, users accept the newest one
(docs/api.md, agreement terms)."""

from __future__ import annotations

import json

from django.db import transaction

from sns.auth.session import auth_record_forget, latest_term_forget
from sns.core.errors import InvalidInput, NotFound, NotLatest
from sns.core.text import normalize_locale
from sns.core.textguard import refuse_invalid
from sns.models import AgreementTerm, User
from sns.reads.access import access_admin

CONTENTS_LENGTH_LIMIT = 262_144


def agreement_contents_clean(contents) -> list[dict]:
    """A non-empty array of {locale, text}, one per locale, English among them."""
    if not isinstance(contents, list) or not contents:
        raise InvalidInput("contents must be a non-empty array")
    seen: set[str] = set()
    cleaned = []
    for index, item in enumerate(contents):
        if not isinstance(item, dict):
            raise InvalidInput(f"contents[{index}] must be an object")
        if sorted(item) != ["locale", "text"]:
            raise InvalidInput(f"contents[{index}] must contain only locale and text")
        if not isinstance(item["locale"], str):
            raise InvalidInput(f"contents[{index}].locale must be a string")
        if not isinstance(item["text"], str):
            raise InvalidInput(f"contents[{index}].text must be a string")
        try:
            locale = normalize_locale(item["locale"])
        except InvalidInput:
            raise InvalidInput(f"contents[{index}].locale is invalid") from None
        if locale in seen:
            raise InvalidInput(f"duplicate locale: {locale}")
        if not item["text"].strip():
            raise InvalidInput(f"contents[{index}].text must not be empty")
        seen.add(locale)
        cleaned.append({"locale": locale, "text": refuse_invalid(item["text"], "contents")})
    if "en" not in seen:
        raise InvalidInput("contents must include the en locale")
    if len(json.dumps(cleaned, ensure_ascii=False)) > CONTENTS_LENGTH_LIMIT:
        raise InvalidInput(f"contents exceeds {CONTENTS_LENGTH_LIMIT} characters")
    return cleaned


@transaction.atomic
def agreement_term_put(actor: User, term_id: int, contents) -> AgreementTerm:
    """Create or replace the term with this id (ids are chosen by the admin, so a
    seeding tool can write the same versions everywhere)."""
    access_admin(actor)
    cleaned = agreement_contents_clean(contents)
    term, _created = AgreementTerm.objects.update_or_create(
        pk=term_id, defaults={"contents": json.dumps(cleaned, ensure_ascii=False)}
    )
    latest_term_forget()
    return term


@transaction.atomic
def agreement_term_delete(actor: User, term_id: int) -> None:
    access_admin(actor)
    deleted, _ = AgreementTerm.objects.filter(pk=term_id).delete()
    if not deleted:
        raise NotFound("not found")
    latest_term_forget()


@transaction.atomic
def agreement_accept(actor: User, term_id: int) -> None:
    """Only the newest term can be accepted; accepting it again is harmless."""
    latest = AgreementTerm.objects.order_by("-id").values_list("id", flat=True).first()
    if latest is None or latest != term_id:
        raise NotLatest("agreement term is not latest")
    User.objects.filter(pk=actor.pk).update(agreement_term_id=term_id)
    auth_record_forget(actor.pk)
    actor.agreement_term_id = term_id
    if hasattr(actor, "latest_agreement_term_id"):
        actor.latest_agreement_term_id = latest
