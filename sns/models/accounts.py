"""The e-mail verifications of sign-up, e-mail change and password reset.

One row per started verification; its UUID is the `signupId`, `updateEmailId` or
`resetPasswordId` the client holds. Codes are kept only as keyed hashes, a row is
deleted when its code is used, and attempts are counted before any comparison
(sns/services/verification.py, docs/accounts.md).
"""

from __future__ import annotations

import uuid

from django.db import models


class VerificationPurpose(models.TextChoices):
    SIGNUP = "signup"
    EMAIL = "email"
    RESET = "reset"


class EmailVerification(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    purpose = models.CharField(max_length=8, choices=VerificationPurpose.choices)
    # The address the code was sent to (the new address of an e-mail change).
    email = models.CharField(max_length=100)
    # Whose e-mail or password changes; null for sign-up and for a reset asked for an
    # address with no account behind it, which gets a row all the same so that its
    # answers cannot be told apart from a real one's.
    user = models.ForeignKey(
        "sns.User", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    # HMAC of the code; "" when no code was sent (the address is taken): never matches.
    code_hash = models.CharField(max_length=64, blank=True, default="")
    # The password reset's second code, the one its start answer carries.
    web_code_hash = models.CharField(max_length=64, blank=True, default="")
    # Sign-up through the API: the password given at the start, already hashed.
    password = models.CharField(max_length=128, blank=True, default="")
    locale = models.CharField(max_length=50, blank=True, default="")
    timezone = models.CharField(max_length=50, blank=True, default="")
    attempts = models.PositiveSmallIntegerField(default=0)
    # Sign-up on the pages: the code was right, nickname and password come next.
    verified = models.BooleanField(default=False)
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["expires_at"], name="verification_expiry_idx")]

    def __str__(self):
        return f"{self.purpose} verification {self.id}"
