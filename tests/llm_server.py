"""A local OpenAI-compatible server for tests: the real `openai` client talks to it
over loopback, so timeouts, status codes and headers are exercised for real.

Each test scripts the answers: `push_chat(...)`, `push_embedding(...)` or `push(...)`
queue responses per endpoint; when a queue is empty the endpoint answers a plain
success. Every request is recorded (path, JSON body, headers, arrival time).

The batch interface is there too: `POST /v1/files` (a JSONL upload), `POST /v1/batches`,
`GET /v1/batches/<id>` and `GET /v1/files/<id>/content`. A batch stays `in_progress`
until the test calls `finish_batches(...)`: `completed` answers every line from the chat
queue (as `/v1/chat/completions` would), `failed` or `expired` answers none.
"""

from __future__ import annotations

import base64
import email.parser
import email.policy
import itertools
import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np
import pytest

CHAT_PATH = "/v1/chat/completions"
EMBEDDINGS_PATH = "/v1/embeddings"
FILES_PATH = "/v1/files"
BATCHES_PATH = "/v1/batches"


@dataclass
class Scripted:
    status: int = 200
    body: Any = None  # dict/list → JSON; str/bytes → sent as is
    delay: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    # Seconds between bytes: the whole answer, status line and headers included, sent
    # one byte at a time, as a model endpoint that hangs without going silent does.
    dribble: float = 0.0


@dataclass
class Recorded:
    path: str
    body: Any
    headers: dict[str, str]
    at: float

    @property
    def prompt(self) -> str:
        """A chat request's messages as one text (an AI user's call is a system and a
        user message; agents.prompts.messages_text joins them)."""
        from agents.prompts import messages_text

        return messages_text(self.body.get("messages") or [] if isinstance(self.body, dict) else [])


def chat_body(
    content: str | None = "ok",
    *,
    model: str = "test-model",
    prompt_tokens: int = 10,
    completion_tokens: int = 2,
    cached_tokens: int | None = None,
) -> dict:
    usage: dict[str, Any] = {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
    }
    if cached_tokens is not None:
        usage["prompt_tokens_details"] = {"cached_tokens": cached_tokens}
    choices = []
    if content is not None:
        choices.append(
            {
                "index": 0,
                "finish_reason": "stop",
                "message": {"role": "assistant", "content": content},
            }
        )
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": choices,
        "usage": usage,
    }


def error_body(message: str, kind: str = "server_error") -> dict:
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


def fake_vector(text: str, dim: int) -> list[float]:
    """A deterministic vector per text, so equal inputs give equal embeddings."""
    seed = int.from_bytes(text.encode("utf-8")[:8].ljust(8, b"\0"), "little") ^ len(text)
    return np.random.default_rng(seed).standard_normal(dim).astype(np.float32).tolist()


class _Server(ThreadingHTTPServer):
    # The backlog must be set before listen(), which the constructor calls; the default
    # of 5 makes a burst of concurrent calls wait a second for a retried connection.
    request_queue_size = 128


class LlmServer:
    def __init__(self) -> None:
        self.requests: list[Recorded] = []
        self.dribbling = 0  # answers being sent a byte at a time right now
        # Unscripted chat calls whose request body this predicate refuses are dribbled
        # (`hang_chat_unless`): a model that hangs for some callers and not others.
        self._hang_unless: tuple[Any, float, str] | None = None
        # Chat calls whose prompt contains a marker are answered its content before any
        # queue is read (`answer_when`): one task's calls scripted apart from the rest.
        self._answers_when: list[tuple[str, str]] = []
        self._queues: dict[str, deque[Scripted]] = {CHAT_PATH: deque(), EMBEDDINGS_PATH: deque()}
        self.files: dict[str, str] = {}  # id -> text
        self.batches: dict[str, dict] = {}  # id -> the batch object served
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._httpd = _Server(("127.0.0.1", 0), _handler_for(self))
        self._httpd.daemon_threads = True
        # A request left sleeping by a timeout test must not hold up shutdown.
        self._httpd.block_on_close = False
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> "LlmServer":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    # -- scripting

    def push(self, path: str, status: int = 200, body: Any = None, *, delay: float = 0.0,
             headers: dict[str, str] | None = None, dribble: float = 0.0) -> None:
        with self._lock:
            self._queues[path].append(Scripted(status, body, delay, dict(headers or {}), dribble))

    def push_chat(self, content: str | None = "ok", *, status: int = 200, delay: float = 0.0,
                  headers: dict[str, str] | None = None, body: Any = None, dribble: float = 0.0,
                  **usage) -> None:
        if body is None:
            body = chat_body(content, **usage) if status < 400 else error_body(f"status {status}")
        self.push(CHAT_PATH, status, body, delay=delay, headers=headers, dribble=dribble)

    def hang_chat(self, *, dribble: float = 0.05, times: int = 1) -> None:
        """The next `times` chat calls answer "ok", but one byte every `dribble` seconds."""
        for _ in range(times):
            self.push_chat("ok", dribble=dribble)

    def push_embedding(self, *, status: int = 200, delay: float = 0.0, body: Any = None,
                       headers: dict[str, str] | None = None) -> None:
        """Queue one embeddings answer; `body=None` with 200 → computed vectors."""
        self.push(EMBEDDINGS_PATH, status, body, delay=delay, headers=headers)

    def finish_batches(self, status: str = "completed") -> None:
        """End every batch in progress: `completed` answers each line from the chat queue
        (or a plain success), `failed` / `expired` answer none."""
        with self._lock:
            pending = [b for b in self.batches.values() if b["status"] == "in_progress"]
        for batch in pending:
            if status != "completed":
                batch["status"] = status
                continue
            lines = []
            for line in self.files[batch["input_file_id"]].splitlines():
                item = json.loads(line)
                scripted = self._next(CHAT_PATH)
                body = scripted.body
                if scripted.status == 200 and body is None:
                    body = chat_body("ok", model=item["body"].get("model", "test-model"))
                lines.append(json.dumps({
                    "id": f"batch_req_{next(self._ids)}", "custom_id": item["custom_id"],
                    "response": {"status_code": scripted.status, "request_id": "req", "body": body},
                    "error": None,
                }))
            output_id = f"file-{next(self._ids)}"
            self.files[output_id] = "\n".join(lines) + "\n"
            batch.update(status="completed", output_file_id=output_id)

    def batch_lines(self) -> list[dict]:
        """The request lines of every batch submitted, in order."""
        return [
            json.loads(line)
            for batch in self.batches.values()
            for line in self.files[batch["input_file_id"]].splitlines()
        ]

    def hang_chat_unless(self, answered, *, content: str = "ok", dribble: float = 0.05) -> None:
        """From now on every unscripted chat call whose JSON body `answered(body)` accepts
        is answered `content` at once; the others "ok", a byte every `dribble` seconds."""
        self._hang_unless = (answered, dribble, content)

    def answer_when(self, marker: str, content: str) -> None:
        """From now on every chat call whose messages contain `marker` is answered
        `content`, whatever is queued."""
        self._answers_when.append((marker, content))

    def chat_requests(self) -> list[Recorded]:
        return [r for r in self.requests if r.path == CHAT_PATH]

    def embedding_requests(self) -> list[Recorded]:
        return [r for r in self.requests if r.path == EMBEDDINGS_PATH]

    # -- serving

    def _next(self, path: str, request: Any = None) -> Scripted:
        if path == CHAT_PATH and self._answers_when:
            text = json.dumps((request or {}).get("messages", []), ensure_ascii=False)
            for marker, content in self._answers_when:
                if marker in text:
                    return Scripted(body=chat_body(content))
        with self._lock:
            queue = self._queues.get(path)
            if queue:
                return queue.popleft()
        if path == CHAT_PATH and self._hang_unless is not None:
            answered, dribble, content = self._hang_unless
            if answered(request):
                return Scripted(body=chat_body(content))
            return Scripted(dribble=dribble)
        return Scripted()

    def _default_body(self, path: str, request: Any) -> Any:
        if path == CHAT_PATH:
            return chat_body("ok", model=str((request or {}).get("model", "test-model")))
        inputs = request.get("input", [])
        inputs = [inputs] if isinstance(inputs, str) else list(inputs)
        dim = int(request.get("dimensions") or 1536)
        data = []
        for index, text in enumerate(inputs):
            vector = fake_vector(str(text), dim)
            if request.get("encoding_format") == "base64":
                encoded: Any = base64.b64encode(np.asarray(vector, dtype=np.float32).tobytes()).decode()
            else:
                encoded = vector
            data.append({"object": "embedding", "index": index, "embedding": encoded})
        tokens = sum(len(str(t).split()) for t in inputs)
        return {
            "object": "list",
            "model": request.get("model", "test-embedding"),
            "data": data,
            "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
        }


def _uploaded_file(headers, raw: bytes) -> bytes:
    """The `file` part of a multipart/form-data upload."""
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        f"Content-Type: {headers.get('Content-Type')}\r\n\r\n".encode() + raw
    )
    for part in message.iter_parts():
        if part.get_param("name", header="content-disposition") == "file":
            return part.get_payload(decode=True)
    return b""


def _batch_object(batch_id: str, input_file_id: str, request: dict) -> dict:
    return {
        "id": batch_id, "object": "batch", "endpoint": request.get("endpoint", CHAT_PATH),
        "input_file_id": input_file_id, "completion_window": request.get("completion_window", "24h"),
        "status": "in_progress", "output_file_id": None, "error_file_id": None,
        "created_at": int(time.time()), "errors": None,
        "request_counts": {"total": 0, "completed": 0, "failed": 0},
    }


def _handler_for(server: LlmServer):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format, *args):  # keep test output quiet
            return

        def _record(self, request) -> None:
            server.requests.append(
                Recorded(self.path, request, {k.lower(): v for k, v in self.headers.items()}, time.monotonic())
            )

        def do_GET(self):
            self._record(None)
            parts = self.path.strip("/").split("/")  # v1 batches <id> | v1 files <id> content
            if parts[:2] == ["v1", "batches"] and len(parts) == 3 and parts[2] in server.batches:
                self._send(Scripted(200, server.batches[parts[2]]))
            elif parts[:2] == ["v1", "files"] and len(parts) == 4 and parts[2] in server.files:
                self._send(Scripted(200, server.files[parts[2]].encode()))
            else:
                self._send(Scripted(404, error_body("no such object", "invalid_request_error")))

        def _post_batch_api(self, raw: bytes) -> None:
            if self.path == FILES_PATH:
                file_id = f"file-{next(server._ids)}"
                server.files[file_id] = _uploaded_file(self.headers, raw).decode("utf-8")
                self._record({"id": file_id})
                self._send(Scripted(200, {"id": file_id, "object": "file", "bytes": len(raw),
                                          "created_at": int(time.time()), "filename": "batch.jsonl",
                                          "purpose": "batch", "status": "processed"}))
                return
            request = json.loads(raw or b"{}")
            self._record(request)
            if request.get("input_file_id") not in server.files:
                self._send(Scripted(400, error_body("no such file", "invalid_request_error")))
                return
            batch_id = f"batch_{next(server._ids)}"
            server.batches[batch_id] = _batch_object(batch_id, request["input_file_id"], request)
            self._send(Scripted(200, server.batches[batch_id]))

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            if self.path in (FILES_PATH, BATCHES_PATH):
                self._post_batch_api(raw)
                return
            try:
                request = json.loads(raw or b"null")
            except ValueError:
                request = None
            self._record(request)
            if self.path not in (CHAT_PATH, EMBEDDINGS_PATH):
                self._send(Scripted(404, error_body("no such endpoint", "invalid_request_error")))
                return
            scripted = server._next(self.path, request)
            if scripted.status == 200 and scripted.body is None:
                scripted.body = server._default_body(self.path, request or {})
            if scripted.delay:
                time.sleep(scripted.delay)
            self._send(scripted)

        def _send(self, scripted: Scripted) -> None:
            body = scripted.body
            if isinstance(body, (dict, list)):
                payload, kind = json.dumps(body).encode(), "application/json"
            elif isinstance(body, str):
                payload, kind = body.encode(), "text/plain"
            else:
                payload, kind = bytes(body or b""), "application/octet-stream"
            try:
                if scripted.dribble:
                    self._dribble(scripted, payload, kind)
                    return
                self.send_response(scripted.status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(payload)))
                for name, value in scripted.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test); nothing to answer

        def _dribble(self, scripted: Scripted, payload: bytes, kind: str) -> None:
            head = f"HTTP/1.1 {scripted.status} OK\r\nContent-Type: {kind}\r\n"
            head += "".join(f"{k}: {v}\r\n" for k, v in scripted.headers.items())
            head += f"Content-Length: {len(payload)}\r\n\r\n"
            with server._lock:
                server.dribbling += 1
            try:
                for byte in head.encode() + payload:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    time.sleep(scripted.dribble)
            finally:
                with server._lock:
                    server.dribbling -= 1

    return Handler


@pytest.fixture
def llm_server(settings, monkeypatch):
    """A running local server with the gateway pointed at it (provider `openai`)."""
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    server = LlmServer().start()
    settings.STGY_AI_PROVIDER = "openai"
    settings.OPENAI_BASE_URL = server.url + "/v1"
    settings.OPENAI_API_KEY = "test"
    settings.STGY_AI_RETRY_BASE_DELAY = 0.01
    settings.STGY_AI_RETRY_MAX_DELAY = 0.05
    settings.STGY_AI_RPC_TIMEOUT_MS = 5000
    try:
        yield server
    finally:
        server.stop()
