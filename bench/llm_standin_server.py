"""A local OpenAI-compatible chat server for the benchmarks: it answers after a fixed
latency with schema-valid JSON for each prompt task, and reports token usage.

The answer is written by the project's offline stand-in (`agents.llm.offline`): the
server recognises the task from the prompt template's heading, takes the profile and
task JSON back out of the prompt, and hands them to the stand-in as structured inputs.
Token counts are o200k_base counts when `bpe-openai` is installed, else an estimate
(bench/tokens.py). Cached tokens are reported as OpenAI reports them
(`prompt_tokens_details.cached_tokens`): the longest prefix a prompt shares with one of
the last prompts the server saw, by OpenAI's rule (from 1,024 tokens, in 128-token
steps; bench/token_economy.py). Loopback only.

    python -m bench.llm_standin_server --port 8765 --latency 2.0
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from .token_economy import RECENT_WINDOW

CHAT_PATH = "/v1/chat/completions"
LANGS = ("en", "ja")


def _anchor(template: str, placeholder: str) -> str:
    """The line right before `placeholder` in a template, with its newline."""
    head = template.split(placeholder, 1)[0]
    return head.rstrip("\n").rsplit("\n", 1)[-1] + "\n"


class TaskReader:
    """Recognises a rendered prompt's task and language and extracts its JSON inputs."""

    def __init__(self) -> None:
        from agents.prompts import AGENT_TASK_PLACEHOLDERS, CATALOGUED_TASKS, COMMON_PROFILE, SUMMARY_TASK, load_prompt

        self.catalogued = set(CATALOGUED_TASKS)
        self.labels = {"ja": "日本語（", "en": "English ("}  # agents.prompts.locale_label

        placeholders = {**AGENT_TASK_PLACEHOLDERS, SUMMARY_TASK: "{{POST_JSON}}"}

        self.tasks: list[tuple[str, str, str, str]] = []  # heading, task, lang, payload anchor
        self.profile_anchor: dict[str, str] = {}
        for lang in LANGS:
            common = load_prompt(COMMON_PROFILE, lang)
            self.profile_anchor[lang] = _anchor(common, "{{PROFILE_JSON}}")
            for task, placeholder in placeholders.items():
                template = load_prompt(task, lang)
                heading = template.strip().split("\n", 1)[0]
                self.tasks.append((heading, task, lang, _anchor(template, placeholder)))
        self.decoder = json.JSONDecoder()

    def _json_after(self, text: str, anchor: str, start: int) -> dict:
        at = text.find(anchor, start)
        if at < 0:
            return {}
        body = text[at + len(anchor):].lstrip()
        try:
            value, _ = self.decoder.raw_decode(body)
        except ValueError:
            return {}
        return value if isinstance(value, dict) else {}

    def _profile(self, head: str, task_lang: str) -> dict:
        # The common profile is written in the AI user's language, which need not be
        # the task's (an English user reading a Japanese post), so try every language,
        # the task's first.
        for lang in (task_lang, *(x for x in LANGS if x != task_lang)):
            profile = self._json_after(head, self.profile_anchor[lang], 0)
            if profile:
                return profile
        return {}

    def read(self, prompt: str) -> tuple[str, str, dict]:
        # The system message lists the cycle's task instructions under their headings,
        # so the task asked is the one whose heading comes last (the user message's).
        found = [(prompt.rfind(heading), heading, task, lang, anchor) for heading, task, lang, anchor in self.tasks]
        found = [entry for entry in found if entry[0] >= 0]
        if not found:
            return "chat", "en", {}
        at, heading, task, lang, anchor = max(found, key=lambda entry: (entry[0], len(entry[1])))
        inputs = {"payload": self._json_after(prompt, anchor, at)}
        if task != "post-summary":
            inputs["profile"] = self._profile(prompt[:at], lang)
        if task in self.catalogued:
            # Such a message is in the AI user's language; the language it asks for
            # is the one its {{LOCALE}} names.
            lang = next((code for code, label in self.labels.items() if label in prompt[at:]), lang)
        return task, lang, inputs


class StandIn:
    def __init__(self, latency: float) -> None:
        from agents.llm.offline import OfflineProvider

        from .tokens import count_tokens

        self.latency = latency
        self.reader = TaskReader()
        self.provider = OfflineProvider()
        self.count_tokens = count_tokens
        self.lock = threading.Lock()
        self.requests = 0
        self.by_task: dict[str, int] = {}
        from agents.llm.prefix_cache import RecentPrompts

        self.recent = RecentPrompts(RECENT_WINDOW)

    def cached_tokens(self, prompt: str) -> int:
        """What a provider's prefix cache would serve of `prompt`, then remember it."""
        from agents.llm.prefix_cache import provider_cacheable

        data = prompt.encode("utf-8")
        shared = self.recent.shared_then_add(data)
        if not shared:
            return 0
        return provider_cacheable(self.count_tokens(data[:shared].decode("utf-8", "ignore")))

    def answer(self, body: dict) -> dict:
        from agents.llm.types import ChatRequest
        from agents.prompts import messages_text

        messages = body.get("messages") or []
        prompt = messages_text(messages)
        task, lang, inputs = self.reader.read(prompt)
        request = ChatRequest(
            messages=messages, model=str(body.get("model", "standin")), task=task, locale=lang,
            json_mode=bool(body.get("response_format")), inputs=inputs,
        )
        content = self.provider.complete(request).content
        with self.lock:
            self.requests += 1
            self.by_task[task] = self.by_task.get(task, 0) + 1
        prompt_tokens = self.count_tokens(prompt)
        cached_tokens = min(prompt_tokens, self.cached_tokens(prompt))
        completion_tokens = self.count_tokens(content)
        return {
            "id": f"chatcmpl-standin-{self.requests}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": request.model,
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                      "total_tokens": prompt_tokens + completion_tokens,
                      "prompt_tokens_details": {"cached_tokens": cached_tokens}},
        }


def make_handler(standin: StandIn):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as the openai client expects

        def log_message(self, *args) -> None:  # quiet
            return

        def _send(self, status: int, payload: dict) -> None:
            data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            if self.path == "/stats":
                self._send(200, {"requests": standin.requests, "byTask": standin.by_task})
            else:
                self._send(404, {"error": {"message": "not found"}})

        def do_POST(self) -> None:
            started = time.monotonic()
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            if self.path.rstrip("/") != CHAT_PATH:
                self._send(404, {"error": {"message": "not found", "type": "invalid_request_error"}})
                return
            try:
                payload = standin.answer(json.loads(raw))
            except Exception as exc:  # a stand-in bug must show up as a 500, not a hang
                self._send(500, {"error": {"message": f"{type(exc).__name__}: {exc}", "type": "server_error"}})
                return
            rest = standin.latency - (time.monotonic() - started)
            if rest > 0:
                time.sleep(rest)
            self._send(200, payload)

    return Handler


class _Server(ThreadingHTTPServer):
    # listen() runs in the constructor, so the backlog must be a class attribute: with
    # the default 5, a burst of concurrent calls overflows it and the kernel makes the
    # extra clients retry their connection a whole second later.
    request_queue_size = 256
    daemon_threads = True


def serve(port: int, latency: float) -> ThreadingHTTPServer:
    return _Server(("127.0.0.1", port), make_handler(StandIn(latency)))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--latency", type=float, default=2.0, help="seconds before each answer")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "stgy.settings")
    os.environ.setdefault("SECRET_KEY", "bench-not-secret")
    import django

    django.setup()
    server = serve(args.port, args.latency)
    host, port = server.server_address[:2]
    print(f"http://{host}:{port}/v1", flush=True)
    try:
        server.serve_forever(poll_interval=0.5)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    sys.exit(main())
