"""`manage.py mcp`: the MCP server (docs/mcp.md). Without options it speaks stdio, as
the user of the token in STGY_MCP_TOKEN; with --http it serves streamable HTTP at
http://HOST:PORT/mcp, each request as the user of its own bearer token."""

from __future__ import annotations

import anyio
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from mcp_server.server import build_server, http_app


class Command(BaseCommand):
    help = "Run the MCP server: stdio (STGY_MCP_TOKEN), or streamable HTTP with --http."

    def add_arguments(self, parser):
        parser.add_argument(
            "--http", action="store_true", help="serve streamable HTTP instead of stdio"
        )
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8765)

    def handle(self, *args, **options):
        server = build_server()
        if not options["http"]:
            # stdout is the protocol's: nothing else may be written there.
            if not settings.STGY_MCP_TOKEN:
                raise CommandError("set STGY_MCP_TOKEN to a personal access token (docs/mcp.md)")
            anyio.run(server.run_stdio_async)
            return
        import uvicorn

        host, port = options["host"], options["port"]
        app = http_app(server, host=host)
        self.stderr.write(f"MCP server at http://{host}:{port}/mcp (Authorization: Bearer <token>)")
        uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning")).run()
