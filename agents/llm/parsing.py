"""The one parser of model output (docs/prompts.md §4.2–4.3, docs/architecture.md, convention 14).

Models wrap JSON in fences or prose and make small syntax slips; ``extract_json`` tolerates
exactly the slips the original tolerated and nothing more, so behaviour stays predictable.
The per-task validators turn the JSON into plain dicts. Any failure raises
``ModelOutputError``: it fails that step, and a decision is never defaulted to "yes".
"""

from __future__ import annotations

import json
import re
from typing import Any

from agents.tags import clean_tags_for_storage, parse_keywords, parse_tags_field
from agents.textmeasure import truncate_pt

TEXT_LIMIT_PT = 10000
REPLY_MIN_TAGS = 2

_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.IGNORECASE | re.DOTALL)
_TRAILING_COMMA = re.compile(r",\s*([}\]])$")
# `<indent>"<key>": "<value>"<optional comma>` — the only shape the repair pass touches.
_KEY_VALUE_LINE = re.compile(r'^(\s*"[^"]*"\s*:\s*")(.*)("\s*,?\s*)$')
_BARE_QUOTE = re.compile(r'(?<!\\)"')


class ModelOutputError(ValueError):
    """The model's answer could not be used for the task it was asked."""

    def __init__(self, message: str, text: str | None = None) -> None:
        if text is not None:
            excerpt = text if len(text) <= 200 else text[:200] + "…"
            message = f"{message} (model output: {excerpt!r})"
        super().__init__(message)


def _reject_constant(name: str) -> Any:
    # JSON.parse has no NaN/Infinity; accepting them would let odd values through.
    raise ValueError(f"invalid JSON constant {name}")


def _loads(text: str) -> Any:
    return json.loads(text, parse_constant=_reject_constant)


def _repair_quotes(text: str) -> str:
    lines = []
    for line in text.split("\n"):
        match = _KEY_VALUE_LINE.match(line)
        if match:
            head, value, tail = match.groups()
            line = head + _BARE_QUOTE.sub('\\\\"', value) + tail
        lines.append(line)
    return "\n".join(lines)


def extract_json(text: str) -> Any:
    """Parse the JSON value in a model answer.

    Takes the first fenced block, else the span from the first "{" to the last "}", drops
    one trailing comma before the final closing bracket, and retries once with unescaped
    quotes inside ``"key": "value"`` lines escaped. If both attempts fail, the error of the
    first attempt is reported, since the repair's error would describe text the model never
    wrote.
    """
    body = text.strip()
    fence = _FENCE.search(body)
    if fence:
        body = fence.group(1).strip()
    else:
        first, last = body.find("{"), body.rfind("}")
        if first != -1 and last != -1 and first < last:
            body = body[first : last + 1]
    body = _TRAILING_COMMA.sub(r"\1", body)
    try:
        return _loads(body)
    except ValueError as original:
        try:
            return _loads(_repair_quotes(body))
        except ValueError:
            raise ModelOutputError(f"invalid JSON: {original}", text) from original


def _object_with_string(text: str, key: str) -> dict[str, Any]:
    data = extract_json(text)
    if not isinstance(data, dict):
        raise ModelOutputError(f"expected a JSON object with {key!r}", text)
    if not isinstance(data.get(key), str):
        raise ModelOutputError(f"{key!r} is missing or not a string", text)
    return data


def _tags(data: dict[str, Any], max_count: int) -> list[str]:
    return clean_tags_for_storage(
        parse_tags_field(data.get("tags"), max_count), max_count=max_count
    )


def _non_empty(data: dict[str, Any], key: str, text: str) -> str:
    value = data[key].strip()
    if not value:
        raise ModelOutputError(f"{key!r} is empty", text)
    return truncate_pt(value, TEXT_LIMIT_PT)


def parse_post_impression(text: str, tag_max: int = 5) -> dict[str, Any]:
    """Impression of one post plus the like/reply decisions (only literal ``true`` is yes)."""
    return _post_impression(_object_with_string(text, "impression"), tag_max)


def _post_impression(data: dict[str, Any], tag_max: int) -> dict[str, Any]:
    return {
        "impression": truncate_pt(data["impression"].strip(), TEXT_LIMIT_PT),
        "tags": _tags(data, tag_max),
        "shouldLike": data.get("shouldLike") is True,
        "shouldReply": data.get("shouldReply") is True,
    }


def parse_peer_impression(text: str, tag_max: int = 5) -> dict[str, Any]:
    """Impression of another user plus the follow decision (only literal ``true`` is yes)."""
    return _peer_impression(_object_with_string(text, "impression"), tag_max)


def _peer_impression(data: dict[str, Any], tag_max: int) -> dict[str, Any]:
    return {
        "impression": truncate_pt(data["impression"].strip(), TEXT_LIMIT_PT),
        "tags": _tags(data, tag_max),
        "shouldFollow": data.get("shouldFollow") is True,
    }


def _batch(text: str, count: int, one: Any, tag_max: int) -> dict[int, dict[str, Any] | str]:
    """Item number (1..count) -> the item's validated answer, or why it has none.

    The whole answer must be an object with an "impressions" list; each entry is then
    judged alone, so one bad entry costs only its own item. An entry is matched by its
    "n", or by its position when it has none; a number answered twice keeps the first."""
    data = extract_json(text)
    if not isinstance(data, dict) or not isinstance(data.get("impressions"), list):
        raise ModelOutputError("expected a JSON object with an 'impressions' list", text)
    out: dict[int, dict[str, Any] | str] = {}
    for position, entry in enumerate(data["impressions"], 1):
        if not isinstance(entry, dict):
            continue
        n = entry.get("n", position)
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= count or n in out:
            continue
        if not isinstance(entry.get("impression"), str) or not entry["impression"].strip():
            # A blank impression is no impression: the item fails, alone (docs/prompts.md).
            out[n] = f"ModelOutputError: item {n}: 'impression' is missing, blank or not a string"
            continue
        out[n] = one(entry, tag_max)
    for n in range(1, count + 1):
        out.setdefault(n, f"ModelOutputError: no answer for item {n}")
    return out


def parse_post_impressions(text: str, count: int, tag_max: int = 5) -> dict[int, dict[str, Any] | str]:
    """Impressions of `count` posts asked in one call: item number -> the item's
    answer as `parse_post_impression` gives it, or an error text for that item."""
    return _batch(text, count, _post_impression, tag_max)


def parse_peer_impressions(text: str, count: int, tag_max: int = 5) -> dict[int, dict[str, Any] | str]:
    """Impressions of `count` users asked in one call, as `parse_post_impressions`."""
    return _batch(text, count, _peer_impression, tag_max)


def parse_interest(text: str, tag_max: int = 5) -> dict[str, Any]:
    """The AI user's updated interest text and tags."""
    data = _object_with_string(text, "interest")
    return {
        "interest": truncate_pt(data["interest"].strip(), TEXT_LIMIT_PT),
        "tags": _tags(data, tag_max),
    }


def parse_new_post(text: str, tag_num: int = 3) -> dict[str, Any]:
    """A new root post. Trimmed and rejected when blank (our fix, docs/differences.md item 10)."""
    data = _object_with_string(text, "content")
    return {"content": _non_empty(data, "content", text), "tags": _tags(data, tag_num)}


def reply_fallback_tags(locale: str) -> list[str]:
    """Fixed tag pair for replies whose model output had fewer than two usable tags."""
    lang = locale.replace("_", "-").lower()
    if lang == "ja" or lang.startswith("ja-"):
        return ["総記", "返信"]
    if lang == "en" or lang.startswith("en-"):
        return ["General works", "reply"]
    return ["General", "reply"]


def parse_reply(text: str, locale: str, tag_num: int = 3, tag_max: int = 5) -> dict[str, Any]:
    """A reply: non-blank content and at least two tags (falling back to a fixed pair)."""
    data = _object_with_string(text, "content")
    tags = _tags(data, tag_max)
    if len(tags) < REPLY_MIN_TAGS:
        tags = reply_fallback_tags(locale)
    return {"content": _non_empty(data, "content", text), "tags": tags[:tag_num]}


def parse_respond(text: str, locale: str, tag_num: int = 3, tag_max: int = 5) -> dict[str, Any]:
    """The respond path's answer: a literal boolean `answer` (anything else is a
    failure, never a yes); with `answer: true`, non-blank content and tags as a reply's.
    `stop` is true only when the model says literally true that the person asked it to
    stop (docs/respond-path.md, "Boundaries said in words"): a model may add a stop,
    and nothing it says lifts one."""
    data = extract_json(text)
    if not isinstance(data, dict):
        raise ModelOutputError("expected a JSON object with 'answer'", text)
    if not isinstance(data.get("answer"), bool):
        raise ModelOutputError("'answer' is missing or not true/false", text)
    stop = data.get("stop") is True
    if data["answer"] is False:
        return {"answer": False, "content": "", "tags": [], "stop": stop}
    if not isinstance(data.get("content"), str):
        raise ModelOutputError("'content' is missing or not a string", text)
    tags = _tags(data, tag_max)
    if len(tags) < REPLY_MIN_TAGS:
        tags = reply_fallback_tags(locale)
    return {"answer": True, "content": _non_empty(data, "content", text), "tags": tags[:tag_num], "stop": stop}


def parse_summary(text: str, tag_max: int = 5) -> dict[str, Any]:
    """A post summary with AI tags and up to 10 keywords that do not repeat a tag."""
    data = _object_with_string(text, "summary")
    tags = _tags(data, tag_max)
    return {
        "summary": truncate_pt(data["summary"], TEXT_LIMIT_PT),
        "tags": tags,
        "keywords": parse_keywords(data.get("keywords"), tags),
    }
