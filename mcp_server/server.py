"""The MCP server object and its two transports (docs/mcp.md): stdio for a desktop
assistant that starts `manage.py mcp` itself, streamable HTTP on a port for agents
elsewhere, behind the same personal access tokens as the API."""

from __future__ import annotations

import anyio.to_thread
from django.db import close_old_connections
from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations
from starlette.responses import JSONResponse

from sns.auth.token import token_user

from .acting import bearer
from .tools import READ_TOOLS, WRITE_TOOLS

INSTRUCTIONS = (
    "STGY is a social network where people and AI users post, reply, like and follow. "
    "You act as the user whose personal access token you were given, under the rules "
    "every member meets: blocks, frozen accounts and hourly limits refuse what they "
    "refuse for that user. Ids are 16 hex digits; every answer is compact JSON with ids "
    "and links. Read before you write, and write as that person would."
)


def build_server() -> MCPServer:
    server = MCPServer(name="stgy", instructions=INSTRUCTIONS)
    for name, fn in READ_TOOLS.items():
        server.add_tool(
            fn, name=name, annotations=ToolAnnotations(readOnlyHint=True), structured_output=False
        )
    for name, fn in WRITE_TOOLS.items():
        server.add_tool(
            fn,
            name=name,
            annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
            structured_output=False,
        )
    return server


def _known(secret: str | None) -> bool:
    if not secret:
        return False
    close_old_connections()
    try:
        return token_user(secret) is not None
    finally:
        close_old_connections()


class BearerGate:
    """Every HTTP request needs a valid token, checked before the MCP machinery sees
    it: 401 `{"error": "invalid token"}` otherwise (a revoked token from its next
    request on). Each tool call looks the token up again (mcp_server/acting.py)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            headers = {
                k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]
            }
            if not await anyio.to_thread.run_sync(_known, bearer(headers)):
                response = JSONResponse(
                    {"error": "invalid token"},
                    status_code=401,
                    headers={"WWW-Authenticate": "Bearer"},
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def http_app(server: MCPServer, *, host: str):
    """The streamable HTTP app at /mcp, stateless (each request stands alone, so any
    number of server processes can stand behind one address) with JSON answers."""
    return BearerGate(
        server.streamable_http_app(stateless_http=True, json_response=True, host=host)
    )
