"""The MCP server through the SDK's own client, over both transports, on the test
database (docs/mcp.md): streamable HTTP from one `manage.py mcp --http` process shared
by the module, stdio by spawning `manage.py mcp` as a desktop assistant would. The
server acts as the token's user through the site's rules: what it writes is that
user's (seen through the API), what the user may not do it may not do, and a revoked
token stops it at once."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import anyio
import httpx2
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from sns import services
from sns.models import Post, Report
from tests.conftest import login_client, requires_postgres
from tests.factories import make_post, make_user
from tests.integration.worker import database_url, stop, wait_for
from tests.redis_server import free_port

pytestmark = [requires_postgres, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
TOOLS = {
    "read_timeline",
    "search_posts",
    "search_users",
    "read_post",
    "read_notifications",
    "posts_for_user",
    "site_digest",
    "write_post",
    "reply",
    "like_post",
    "follow_user",
    "report_post",
}


def _env() -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": database_url(),
        "PYTHONPATH": str(ROOT),
    }


@pytest.fixture(scope="module")
def mcp_server(django_db_setup, django_db_blocker, tmp_path_factory):
    """One `manage.py mcp --http` process for the module: its URL and its log."""
    port = free_port()
    log_path = tmp_path_factory.mktemp("mcp") / "server.log"
    log = log_path.open("w")
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "mcp", "--http", "--port", str(port)],
        cwd=ROOT,
        env=_env(),
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}/mcp"

    def up():
        try:
            return httpx2.post(url, timeout=1).status_code == 401
        except httpx2.TransportError:
            assert proc.poll() is None, "the MCP server exited"
            return False

    try:
        wait_for(up, 30, "the MCP server to listen")
        yield SimpleNamespace(url=url, log=log_path)
    finally:
        stop(proc)
        log.close()


@pytest.fixture
def mcp_url(mcp_server) -> str:
    return mcp_server.url


def _token(user, scopes=("read", "write")) -> str:
    response = login_client(user).post(
        f"/api/users/{user.hex_id}/tokens", {"name": "agent", "scopes": list(scopes)}, format="json"
    )
    assert response.status_code == 201
    return response.json()["token"]


async def _session_calls(session: ClientSession, calls) -> list:
    await session.initialize()
    answers = []
    for name, arguments in calls:
        if name == "list_tools":
            answers.append({tool.name for tool in (await session.list_tools()).tools})
            continue
        result = await session.call_tool(name, arguments)
        text = result.content[0].text
        # The SDK puts "Error executing tool <name>: " before the tool's own message.
        answers.append(("error", text.split(": ", 1)[-1]) if result.is_error else json.loads(text))
    return answers


def over_http(url: str, token: str, *calls) -> list:
    async def run():
        headers = {"Authorization": f"Bearer {token}"}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=30) as http,
            streamable_http_client(url, http_client=http) as (read, write, *_),
            ClientSession(read, write) as session,
        ):
            return await _session_calls(session, calls)

    return anyio.run(run)


def test_over_http_the_client_lists_reads_and_posts_as_the_tokens_user(mcp_url, human, follower):
    make_post(follower, "Fermenting cabbage today #kimchi", tags=["kimchi"])
    tools, timeline, written = over_http(
        mcp_url,
        _token(human),
        ("list_tools", None),
        ("read_timeline", {"feed": "everyone"}),
        ("write_post", {"content": "Hello from my assistant", "tags": ["mcp"]}),
    )
    assert tools == TOOLS
    assert [p["text"] for p in timeline["posts"]] == ["Fermenting cabbage today #kimchi"]
    assert timeline["posts"][0]["author"] == "Bob" and timeline["posts"][0]["url"].endswith(
        f"/posts/{timeline['posts'][0]['id']}"
    )
    seen = login_client(follower).get(f"/api/posts/{written['id']}").json()
    assert seen["ownedBy"] == human.hex_id and seen["content"] == "Hello from my assistant"
    assert seen["tags"] == ["mcp"]


def test_every_tool_answers_through_the_rules(mcp_url, human, follower, admin):
    root = make_post(follower, "Sourdough starters: rye or wheat?", tags=["bread"])
    own = make_post(human, "Rye, always.", reply_to=root.id)
    answers = over_http(
        mcp_url,
        _token(human),
        ("read_timeline", {"feed": "following"}),
        ("read_timeline", {"feed": "for_you", "limit": 5}),
        ("search_posts", {"query": "sourdough"}),
        ("search_users", {"query": "Bob"}),
        ("read_post", {"post_id": root.hex_id}),
        ("like_post", {"post_id": root.hex_id}),
        ("reply", {"post_id": root.hex_id, "content": "Wheat for beginners."}),
        ("follow_user", {"user_id": admin.hex_id}),
        ("report_post", {"post_id": root.hex_id, "reason": "spam", "note": "testing"}),
        ("read_notifications", {}),
        ("posts_for_user", {}),
        ("posts_for_user", {"user_id": follower.hex_id}),
        ("site_digest", {"hours": 24}),
    )
    (
        following,
        for_you,
        found,
        users,
        thread,
        liked,
        replied,
        followed,
        report,
        notes,
        mine,
        theirs,
        digest,
    ) = answers
    assert [p["id"] for p in following["posts"]] == [own.hex_id]  # Alice follows nobody yet
    assert isinstance(for_you["posts"], list)
    assert [p["id"] for p in found["posts"]] == [root.hex_id]
    assert [u["nickname"] for u in users["users"]] == ["Bob"]
    assert thread["post"]["text"] == "Sourdough starters: rye or wheat?"
    assert [r["text"] for r in thread["replies"]] == ["Rye, always."]
    assert liked == {"result": "ok", "postId": root.hex_id}
    assert Post.objects.get(pk=int(replied["id"], 16)).reply_to == root.id
    assert followed["userId"] == admin.hex_id
    assert Report.objects.get().reporter_id == human.id and report["status"] == "open"
    assert [n["slot"] for n in notes["notifications"]] == ["follow"]  # Bob follows Alice
    assert isinstance(mine["posts"], list)
    assert theirs == ("error", "forbidden")  # someone else's taste is for admins
    assert digest["posts"] == 3 and digest["tags"] == [{"tag": "bread", "posts": 1}]


def test_refused_where_the_user_would_be(mcp_url, human, admin):
    author = make_user("Carol")
    post = make_post(author, "My garden")
    services.block_add(author, human.id)
    session_refusal = login_client(human).post(
        "/api/posts", {"content": "hi", "tags": [], "replyTo": post.hex_id}, format="json"
    )
    reply, like = over_http(
        mcp_url,
        _token(human),
        ("reply", {"post_id": post.hex_id, "content": "hi"}),
        ("like_post", {"post_id": post.hex_id}),
    )
    assert session_refusal.status_code >= 400
    assert reply == ("error", session_refusal.json()["error"])
    assert like[0] == "error"
    read_only = over_http(mcp_url, _token(human, ["read"]), ("write_post", {"content": "x"}))
    assert read_only == [("error", "read-only token")]
    token = _token(human)
    login_client(admin).put(f"/api/users/{human.hex_id}", {"isFrozen": True}, format="json")
    frozen, timeline = over_http(
        mcp_url, token, ("write_post", {"content": "cold"}), ("read_timeline", {"feed": "everyone"})
    )
    assert frozen == ("error", "user is frozen")
    assert "posts" in timeline  # a frozen account may still read
    assert not Post.objects.filter(owner=human).exists()


def test_bad_arguments_are_tool_errors_not_tracebacks(mcp_url, human):
    answers = over_http(
        mcp_url,
        _token(human),
        ("read_post", {"post_id": "not-an-id"}),
        ("read_post", {"post_id": "00000000000000AA"}),
        ("read_timeline", {"feed": "sideways"}),
        ("write_post", {"content": ""}),
        ("report_post", {"post_id": "00000000000000AA", "reason": "boredom"}),
        ("like_post", {}),
    )
    assert answers[0] == ("error", "invalid postId")
    assert answers[1] == ("error", "not found")
    for answer in answers:
        assert answer[0] == "error" and "Traceback" not in answer[1]


def test_a_revoked_token_is_refused_at_once(mcp_url, human):
    token = _token(human)
    assert over_http(mcp_url, token, ("read_timeline", {}))[0]["feed"] == "following"
    (made,) = login_client(human).get(f"/api/users/{human.hex_id}/tokens").json()
    login_client(human).delete(f"/api/users/{human.hex_id}/tokens/{made['id']}")
    response = httpx2.post(
        mcp_url,
        headers={
            "Authorization": f"Bearer {token}",
            "Accept": "application/json, text/event-stream",
        },
        json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
    )
    assert (response.status_code, response.json()) == (401, {"error": "invalid token"})
    assert httpx2.post(mcp_url, json={}).status_code == 401  # and no token at all


def test_over_stdio_a_spawned_server_acts_as_the_tokens_user(human, follower, tmp_path):
    make_post(follower, "Morning run by the river")
    params = StdioServerParameters(
        command=sys.executable,
        args=["manage.py", "mcp"],
        cwd=str(ROOT),
        env={**_env(), "STGY_MCP_TOKEN": _token(human)},
    )

    calls = [
        ("list_tools", None),
        ("read_timeline", {"feed": "everyone"}),
        ("write_post", {"content": "Posted over stdio"}),
    ]

    async def run():
        with (tmp_path / "stderr.log").open("w") as errlog:
            async with (
                stdio_client(params, errlog=errlog) as (read, write, *_),
                ClientSession(read, write) as session,
            ):
                return await _session_calls(session, calls)

    tools, timeline, written = anyio.run(run)
    assert tools == TOOLS
    assert [p["text"] for p in timeline["posts"]] == ["Morning run by the river"]
    assert (
        login_client(follower).get(f"/api/posts/{written['id']}").json()["ownedBy"] == human.hex_id
    )


def test_the_servers_log_holds_no_token(mcp_server, human):
    """Last in the module: after every call above, refused ones included, the server's
    log has not one token in it."""
    over_http(mcp_server.url, _token(human), ("read_post", {"post_id": "nope"}))
    refused = httpx2.post(
        mcp_server.url, headers={"Authorization": "Bearer stgy_pat_" + "x" * 43}, json={}
    )
    assert refused.status_code == 401
    assert not re.search(r"stgy_pat_[A-Za-z0-9_-]{8}", mcp_server.log.read_text())
