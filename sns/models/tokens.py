"""Personal access tokens: a person's key for the API and the MCP server, used as
`Authorization: Bearer stgy_pat_…` in place of the session cookie (docs/api.md,
"Personal access tokens"). Rows are written only through `sns.services.tokens`."""

from __future__ import annotations

from django.db import models

from ..core.ids import IdDated, new_id


class TokenScope(models.TextChoices):
    READ = "read", "read"
    # Write includes read: a client that may post may also read what it posts to.
    WRITE = "write", "write"


class AccessToken(IdDated, models.Model):
    id = models.BigIntegerField(primary_key=True, default=new_id, editable=False)
    user = models.ForeignKey(
        "sns.User", on_delete=models.CASCADE, related_name="access_tokens", db_index=False
    )
    name = models.CharField(max_length=100)
    # The widest scope granted; "write" implies "read".
    scope = models.CharField(max_length=10, choices=TokenScope.choices)
    # sha256 of the whole secret, hex: the secret itself is shown once and never stored.
    digest = models.CharField(max_length=64, unique=True)
    # Written at most once per STGY_TOKEN_LAST_USED_STEP seconds (sns/auth/token.py).
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["user", "id"], name="access_token_user_idx")]

    def __str__(self):
        return f"token {self.name!r} of {self.user_id}"

    @property
    def scopes(self) -> list[str]:
        return ["read", "write"] if self.scope == TokenScope.WRITE else ["read"]
