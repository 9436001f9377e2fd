"""How to connect an MCP client to the demo (docs/mcp.md), printed by `manage.py demo`:
a fresh read-and-write token of the demo's person (the one of the previous start is
revoked, so the demo never piles tokens up), the JSON a desktop assistant's config
takes to start `manage.py mcp` over stdio on this very database, and the command and
URL for an agent over HTTP."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from django.conf import settings

from sns.models import AccessToken, User
from sns.services.tokens import token_create, token_revoke

TOKEN_NAME = "bin/demo"
HTTP_PORT = 8765
_ROOT = Path(__file__).resolve().parents[2]


def demo_mcp_token(email: str) -> str | None:
    """A new token of the demo person, replacing the demo's previous one."""
    person = User.objects.filter(email=email).first()
    if person is None:
        return None
    for old in AccessToken.objects.filter(user=person, name=TOKEN_NAME):
        token_revoke(person, person.id, old.id)
    return token_create(person, person.id, name=TOKEN_NAME, scopes=["read", "write"])[1]


def mcp_hint_lines(secret: str) -> list[str]:
    env = {"STGY_MCP_TOKEN": secret, "DEBUG": "true", "STGY_VAR_DIR": str(settings.VAR_DIR)}
    config = {
        "mcpServers": {
            "stgy": {
                "command": sys.executable,
                "args": [str(_ROOT / "manage.py"), "mcp"],
                "env": env,
            }
        }
    }
    return [
        "  MCP:    a desktop assistant's config (stdio), acting as the demo person:",
        "          " + json.dumps(config, separators=(",", ":")),
        f"          an agent over HTTP: DEBUG=true {sys.executable} manage.py mcp --http --port {HTTP_PORT}",
        f"          then http://127.0.0.1:{HTTP_PORT}/mcp with the header Authorization: Bearer {secret}",
    ]
