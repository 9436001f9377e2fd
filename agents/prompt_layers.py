"""The layers of a prompt: which part of each message the builder put there.

A prompt is built piece by piece through `PromptBuilder`, and every piece is added
under a layer: the common instructions, the AI user's profile, the task template, or
one part of the task's input (`posts`, `replyChain`, `existingReplies`, ...). The
builder reports the span of each piece (message, start, end in characters, and its
bytes), so the trace of a call (agents/llm/trace.py) knows what each part of the
messages sent was without reading the text again; the bytes of the messages the
builder did not put in are the trace's *unaccounted* figure, which is zero unless some
text reached a message without going through here (docs/prompts.md §5).

`input_parts` is `agents.prompts.prompt_json` cut at the input's parts: the same
bytes, so a prompt's text, and with it the providers' prefix cache, does not change.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

# The kinds of layer, in the order a prompt puts them.
COMMON, PROFILE, TASK, INPUT = "common", "profile", "task", "input"
KINDS = (COMMON, PROFILE, TASK, INPUT)


@dataclass(frozen=True)
class Span:
    """Characters [start, end) of message `message`'s content belong to layer `name`
    of `kind` (for INPUT, `name` is the input part); `size` is their bytes as built, so
    text put into the message later, anywhere, is counted as unaccounted exactly."""

    kind: str
    name: str
    message: int
    start: int
    end: int
    size: int  # bytes (UTF-8) of the text put there


@dataclass
class Prompt:
    """Chat messages and the spans the builder inserted into them."""

    messages: list[dict[str, str]]
    spans: list[Span] = field(default_factory=list)


class PromptBuilder:
    """Messages built from labelled pieces: `message(role)` opens a message, `add`
    appends a piece to it under a layer. There is no way to add text without a layer."""

    def __init__(self) -> None:
        self._roles: list[str] = []
        self._pieces: list[list[str]] = []
        self._lengths: list[int] = []
        self._spans: list[Span] = []

    def message(self, role: str) -> PromptBuilder:
        self._roles.append(role)
        self._pieces.append([])
        self._lengths.append(0)
        return self

    def add(self, kind: str, name: str, text: str) -> PromptBuilder:
        if kind not in KINDS:
            raise ValueError(f"not a prompt layer kind: {kind!r}")
        if not text:
            return self
        index = len(self._roles) - 1
        start = self._lengths[index]
        end = start + len(text)
        size = len(text.encode())
        self._pieces[index].append(text)
        self._lengths[index] = end
        last = self._spans[-1] if self._spans else None
        if last and (last.kind, last.name, last.message, last.end) == (kind, name, index, start):
            # The same layer again right after itself: one span, not two.
            self._spans[-1] = Span(kind, name, index, last.start, end, last.size + size)
        else:
            self._spans.append(Span(kind, name, index, start, end, size))
        return self

    def add_input(self, obj: Any, *, name: str | None = None) -> PromptBuilder:
        """The input document (`prompt_json`'s bytes), each part its own layer; with
        `name`, the whole document as one part of that name."""
        for part, text in input_parts(obj) if name is None else [(name, _prompt_json(obj))]:
            self.add(INPUT, part, text)
        return self

    def build(self) -> Prompt:
        messages = [
            {"role": role, "content": "".join(pieces)}
            for role, pieces in zip(self._roles, self._pieces, strict=True)
        ]
        return Prompt(messages=messages, spans=list(self._spans))


def _prompt_json(obj: Any) -> str:
    from agents.prompts import prompt_json

    return prompt_json(obj)


# One encoder for every piece: json.dumps with these options builds a new one per call,
# most of the cost of a small piece, and a batched input has dozens.
_dump = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def _list_of_objects(value: Any) -> bool:
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(item, dict) and item for item in value)
    )


def input_parts(obj: Any) -> list[tuple[str, str]]:
    """`prompt_json(obj)` as (part, text) pieces whose texts joined are its bytes.

    A part is a top-level member of the input (`replyChain`, `post`,
    `existingReplies`, ...); the members of a list of objects (the posts or users of
    a batched call) are parts of their own, named `<list>.<member>` (`posts.replyChain`,
    `posts.post`), and the list's brackets and commas belong to the list. Any other
    document is the one part `input`. Placeholders are deleted piece by piece: a
    `{{NAME}}` can only stand inside one string, so this deletes what `prompt_json`
    deletes."""
    from agents.prompts import drop_empty, strip_placeholders

    doc = drop_empty(obj)
    if not isinstance(doc, dict) or not doc:
        return [("input", _prompt_json(obj))]
    pieces: list[tuple[str, str]] = []
    for i, (key, value) in enumerate(doc.items()):
        lead = ("{" if i == 0 else ",") + _dump(key) + ":"
        if not _list_of_objects(value):
            pieces.append((key, lead + _dump(value)))
            continue
        pieces.append((key, lead + "["))
        for j, item in enumerate(value):
            if j:
                pieces.append((key, ","))
            for k, (member, member_value) in enumerate(item.items()):
                text = ("{" if k == 0 else ",") + _dump(member) + ":" + _dump(member_value)
                pieces.append((f"{key}.{member}", text + ("}" if k == len(item) - 1 else "")))
        pieces.append((key, "]"))
    last_name, last_text = pieces[-1]
    pieces[-1] = (last_name, last_text + "}")
    return [(name, strip_placeholders(text) if "{{" in text else text) for name, text in pieces]
