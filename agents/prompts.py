"""Prompt templates: the only module that reads `prompts/<task>-<locale>.txt`.

Templates are plain text files with `{{NAME}}` placeholders. Inputs are inserted as
JSON documents (never through `str.format` over user text), and any placeholder-shaped
text inside those documents is deleted first, so a post cannot inject a placeholder and
braces in user text are harmless. Rendering is deterministic: the same inputs give the
same bytes. An AI user's call is two messages: the system message holds the common
instructions (every task's instructions among them) and the user's profile, the same
bytes for every task of that user, and the user message the task's heading, lengths
and input, so providers can cache the shared prefix (docs/prompts.md §2).
"""

from __future__ import annotations

import functools
import json
import math
import re
from pathlib import Path
from typing import Any

from .prompt_layers import COMMON, PROFILE, TASK, Prompt, PromptBuilder

DEFAULT_PROMPT_DIR = Path(__file__).resolve().parent.parent / "prompts"

COMMON_PROFILE = "common-profile"
SUMMARY_TASK = "post-summary"
# Tasks rendered as common profile + task template, keyed to the placeholder that
# receives the task's own JSON payload.
AGENT_TASK_PLACEHOLDERS: dict[str, str] = {
    "post-impression": "{{POST_JSON}}",
    "peer-impression": "{{PROFILE_JSON}}",
    # Several posts or users judged in one call (agents/cycle/impressions.py): the
    # prefix and the task's instructions are paid once for the lot.
    "post-impressions": "{{POSTS_JSON}}",
    "peer-impressions": "{{USERS_JSON}}",
    "interest": "{{POSTS_JSON}}",
    "new-post": "{{POST_JSON}}",
    "reply-post": "{{POST_JSON}}",
    "respond": "{{POST_JSON}}",
    "respond-message": "{{POST_JSON}}",
    "open-message": "{{POST_JSON}}",
    # A draft revised with knowledge posts (agents/runs/knowledge.py); rare, so not
    # among the catalogued instructions every call carries.
    "revise": "{{POST_JSON}}",
}
AGENT_TASKS = tuple(AGENT_TASK_PLACEHOLDERS)
# The tasks of the cycle and of the respond path, in the order their instructions
# stand in the common instructions ({{TASKS}} of common-profile): the same bytes for
# every call, so a provider caches them with the rest of the prefix instead of billing
# them fresh on each task's first call of every cycle and on every answer. A call of
# one of them carries only its heading, its lengths and its input. (The one-item
# impression tasks are not among them: the cycle asks for its items as lists.)
CATALOGUED_TASKS = (
    "post-impressions", "peer-impressions", "reply-post", "interest", "new-post",
    "respond", "respond-message", "open-message",
)
TASKS = (COMMON_PROFILE, *AGENT_TASKS, SUMMARY_TASK)

PLACEHOLDER_RE = re.compile(r"\{\{[A-Z_]+\}\}")
CJK_LANGUAGES = ("ja", "zh", "ko")


def prompt_dir() -> Path:
    """The template directory: `settings.STGY_PROMPT_DIR` if set, else `<repo>/prompts`.

    Settings are read here, not at import time, and a process without Django
    configured (scripts, plain unit tests) simply gets the default directory.
    """
    try:
        from django.conf import settings
        from django.core.exceptions import ImproperlyConfigured
    except ImportError:  # Django is a dependency, but the loader does not need it
        return DEFAULT_PROMPT_DIR
    try:
        configured = getattr(settings, "STGY_PROMPT_DIR", None)
    except ImproperlyConfigured:
        return DEFAULT_PROMPT_DIR
    return Path(configured) if configured else DEFAULT_PROMPT_DIR


def normalize_locale(locale: str | None) -> str:
    """Trim and replace every "_" by "-" (`ja_JP` -> `ja-JP`)."""
    return (locale or "").strip().replace("_", "-")


def _language(locale: str) -> str:
    return locale.split("-", 1)[0]


def is_cjk(locale: str | None) -> bool:
    """True for `ja`, `zh`, `ko` and their regional variants (`ja-JP`, `zh-TW`, ...)."""
    loc = normalize_locale(locale)
    return any(loc == lang or loc.startswith(lang + "-") for lang in CJK_LANGUAGES)


def locale_label(locale: str | None) -> str:
    """The text that replaces `{{LOCALE}}`: a language name the model cannot misread."""
    loc = normalize_locale(locale)
    if loc == "en" or loc.startswith("en-"):
        return f"English ({loc})"
    if loc == "ja" or loc.startswith("ja-"):
        return f"日本語（{loc}）"
    return loc


def scaled_lengths(locale: str | None, max_chars: int, tag_chars: int) -> tuple[int, int]:
    """Halve both lengths (rounding up) for CJK locales, whose characters carry more."""
    if is_cjk(locale):
        return math.ceil(max_chars * 0.5), math.ceil(tag_chars * 0.5)
    return int(max_chars), int(tag_chars)


def _candidates(prefix: str, locale: str, default: str) -> list[str]:
    names: list[str] = []
    loc = normalize_locale(locale)
    dflt = normalize_locale(default)
    for part in (loc, _language(loc), dflt, _language(dflt)):
        name = f"{prefix}-{part}"
        if part and name not in names:
            names.append(name)
    return names


def find_prompt_file(prefix: str, locale: str | None, default: str = "en") -> Path:
    """First existing file of `<prefix>-<locale>`, `-<language>`, `-<default>`,
    `-<default language>` (each with `.txt`) in `prompt_dir()`."""
    directory = prompt_dir()
    candidates = _candidates(prefix, locale or "", default)
    for name in candidates:
        path = directory / f"{name}.txt"
        if path.is_file():
            return path
    tried = ", ".join(f"{name}.txt" for name in candidates)
    raise FileNotFoundError(
        f"prompt file not found: {prefix} for locale {locale!r} in {directory} (tried {tried})"
    )


@functools.lru_cache(maxsize=128)
def _read_template(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def load_prompt(prefix: str, locale: str | None, default: str = "en") -> str:
    """Contents of the template chosen by `find_prompt_file` (cached per path)."""
    return _read_template(find_prompt_file(prefix, locale, default))


def strip_placeholders(text: str) -> str:
    """Delete every `{{NAME}}` substring, repeatedly, so none can survive or be rebuilt
    (e.g. `{{MAX{{X}}_CHARS}}` would become `{{MAX_CHARS}}` after a single pass)."""
    while True:
        stripped = PLACEHOLDER_RE.sub("", text)
        if stripped == text:
            return stripped
        text = stripped


def _empty(value: Any) -> bool:
    return value is None or value is False or (isinstance(value, (str, list, dict)) and not value)


def drop_empty(obj: Any) -> Any:
    """`obj` without the object members whose value is "", [], {}, null or false, at any
    depth.

    An empty member says only "none" (a false flag, "not so"), which the templates state
    once; in a peer's ten posts, say, the empty impression and tags of the posts the AI
    user never read cost more tokens than the summaries beside them, and every post
    judged carried `"isSelf":false`. List elements are kept as they are."""
    if isinstance(obj, dict):
        kept = {key: drop_empty(value) for key, value in obj.items()}
        return {key: value for key, value in kept.items() if not _empty(value)}
    if isinstance(obj, list):
        return [drop_empty(value) for value in obj]
    return obj


def drop_locale(obj: Any, locale: str) -> Any:
    """`obj` without the `locale` members equal to `locale`, at any depth.

    The task locale is the judged post's or peer's own and is already stated by
    {{LOCALE}}; most posts around it share it, so their locale repeats it too."""
    if isinstance(obj, dict):
        return {
            key: drop_locale(value, locale)
            for key, value in obj.items()
            if not (key == "locale" and isinstance(value, str) and normalize_locale(value) == locale)
        }
    if isinstance(obj, list):
        return [drop_locale(value, locale) for value in obj]
    return obj


def prompt_json(obj: Any) -> str:
    """Serialise an input document: empty members left out, one line without spaces, key
    order kept, non-ASCII literal, placeholders removed.

    The original indents by two spaces and keeps empty members; that whitespace is
    about an eighth of every payload's tokens and tells the model nothing, so both are
    left out (a deliberate difference, docs/prompts.md §2)."""
    return strip_placeholders(json.dumps(drop_empty(obj), ensure_ascii=False, separators=(",", ":")))


def _number(value: int | float) -> str:
    if isinstance(value, bool):
        raise TypeError("a prompt length must be a number, not a bool")
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _fill_common(
    text: str, *, locale: str, max_chars: int | float, tag_chars: int | float, tag_num: int
) -> str:
    text = text.replace("{{MAX_CHARS}}", _number(max_chars))
    text = text.replace("{{TAG_CHARS}}", _number(tag_chars))
    text = text.replace("{{TAG_NUM}}", _number(tag_num))
    return text.replace("{{LOCALE}}", locale_label(locale))


def split_task(template: str) -> tuple[str, str]:
    """A task template as (its instructions, its call part): the call part runs from
    the line with {{LOCALE}} (the lengths) to the input; the instructions are all
    before it, heading included."""
    lines = template.strip().split("\n")
    at = next(i for i, line in enumerate(lines) if "{{LOCALE}}" in line)
    return "\n".join(lines[:at]).rstrip(), "\n".join(lines[at:])


def task_catalogue(locale: str) -> str:
    """The instructions of CATALOGUED_TASKS in `locale`, in their fixed order."""
    return "\n\n".join(split_task(load_prompt(task, locale))[0] for task in CATALOGUED_TASKS)


def common_instructions(profile_locale: str | None) -> str:
    """The bytes every AI user of one locale starts every prompt with: the common-profile
    template, its {{TASKS}} filled with the cycle's task instructions, up to its
    `{{PROFILE_JSON}}` (which is its last line). No per-call value is in it, so a
    provider's prefix cache serves it to every call of every such user."""
    return _common_instructions(prompt_dir(), normalize_locale(profile_locale))


# The texts put together from the templates, kept per template directory as the files'
# contents are (`_read_template`): each AI-user call needs both, and finding their nine
# files (a stat per candidate name) and joining them was most of a call's rendering.
@functools.lru_cache(maxsize=64)
def _common_instructions(directory: Path, loc: str) -> str:
    common = load_prompt(COMMON_PROFILE, loc).strip()
    common = common.replace("{{TASKS}}", task_catalogue(loc))
    return common.split("{{PROFILE_JSON}}", 1)[0]


@functools.lru_cache(maxsize=256)
def _task_template(directory: Path, task: str, loc: str, own: str) -> str:
    if task in CATALOGUED_TASKS:
        instructions, call = split_task(load_prompt(task, own))
        return instructions.split("\n", 1)[0] + "\n\n" + call
    return load_prompt(task, loc).strip()


def system_prompt(profile: dict[str, Any], profile_locale: str | None = None) -> str:
    """The system message of every AI-user call: the common instructions, then the AI
    user's profile as JSON. Same user state, same bytes, whatever the task."""
    return _system_message(PromptBuilder(), profile, profile_locale).build().messages[0]["content"]


def _system_message(builder: PromptBuilder, profile: dict[str, Any], profile_locale: str | None) -> PromptBuilder:
    own = normalize_locale(profile_locale if profile_locale is not None else profile.get("locale"))
    builder.message("system").add(COMMON, "common", common_instructions(own))
    return builder.add(PROFILE, "profile", prompt_json(profile))


def task_prompt(
    task: str, *, locale: str, payload: dict[str, Any], max_chars: int, tag_chars: int, tag_num: int,
    profile_locale: str | None = None,
) -> str:
    """The user message: the task's template with its lengths, language and input.

    For CATALOGUED_TASKS only the heading and the call part: the instructions are in
    the system message, in the AI user's own language (`profile_locale`, by default
    the task's), and so is this message, so its heading names them exactly; the
    language it must write in is still the task's ({{LOCALE}})."""
    builder = _task_message(
        PromptBuilder(), task, locale=locale, payload=payload, max_chars=max_chars, tag_chars=tag_chars,
        tag_num=tag_num, profile_locale=profile_locale,
    )
    return builder.build().messages[0]["content"]


def _task_message(
    builder: PromptBuilder, task: str, *, locale: str, payload: dict[str, Any], max_chars: int, tag_chars: int,
    tag_num: int, profile_locale: str | None,
) -> PromptBuilder:
    if task not in AGENT_TASK_PLACEHOLDERS:
        raise ValueError(f"not an AI-user prompt task: {task!r}")
    loc = normalize_locale(locale)
    own = normalize_locale(profile_locale) or loc
    template = _task_template(prompt_dir(), task, loc, own if task in CATALOGUED_TASKS else loc)
    # Lengths and the language first, the input last: no replacement runs over the
    # input once it is in, so nothing in user text can be filled in.
    template = _fill_common(template, locale=loc, max_chars=max_chars, tag_chars=tag_chars, tag_num=tag_num)
    before, placeholder, after = template.partition(AGENT_TASK_PLACEHOLDERS[task])
    builder.message("user").add(TASK, task, before)
    if placeholder:
        builder.add_input(drop_locale(payload, loc))
    return builder.add(TASK, task, after)


def agent_prompt(
    task: str,
    *,
    locale: str,
    profile: dict[str, Any],
    payload: dict[str, Any],
    max_chars: int,
    tag_chars: int,
    tag_num: int,
    profile_locale: str | None = None,
) -> Prompt:
    """The chat messages of one AI-user call, for one of AGENT_TASKS, with their layers
    (agents/prompt_layers.py): a system message (common instructions + the AI user's
    profile) and a user message (the task template around the task's input).

    The order is what makes the prompt cacheable (docs/prompts.md §2): the common
    instructions are the same bytes for every task and every AI user of a locale and
    are longer than a provider's minimum cached prefix (1,024 tokens at OpenAI); the
    profile follows, so every call of one user, cycle or respond path, shares both;
    everything that varies per call comes after them.

    `locale` is the task locale: it picks the task file and the `{{LOCALE}}` text.
    The common part is picked by the AI user's own locale (`profile_locale`, by
    default the profile's `locale`), not the task's — a deliberate difference from
    the original — so a user reading posts in several languages keeps one prefix.
    `max_chars` / `tag_chars` are final values (apply `scaled_lengths` beforehand).
    """
    loc = normalize_locale(locale)
    own = normalize_locale(profile_locale if profile_locale is not None else profile.get("locale")) or loc
    builder = _system_message(PromptBuilder(), profile, own)
    _task_message(
        builder, task, locale=locale, payload=payload, max_chars=max_chars, tag_chars=tag_chars, tag_num=tag_num,
        profile_locale=own,
    )
    return builder.build()


def render_agent_messages(task: str, **kwargs: Any) -> list[dict[str, str]]:
    """`agent_prompt`'s messages."""
    return agent_prompt(task, **kwargs).messages


def messages_text(messages: list[dict[str, Any]]) -> str:
    """A message list as one text (message contents joined by a blank line): what the
    token benchmark counts and the stand-ins read. Its prefix is the messages' prefix."""
    return "\n\n".join(str(m.get("content", "")) for m in messages)


def render_agent_prompt(task: str, **kwargs: Any) -> str:
    """`render_agent_messages` as one text (`messages_text`)."""
    return messages_text(render_agent_messages(task, **kwargs))


def summary_prompt(
    *,
    locale: str,
    payload: dict[str, Any],
    max_chars: int,
    tag_chars: int,
    tag_num: int,
) -> Prompt:
    """The post-summary template alone (untrimmed), one user message: a neutral
    summariser, no persona. The post is one input part, `post`."""
    loc = normalize_locale(locale)
    template = _fill_common(load_prompt(SUMMARY_TASK, loc), locale=loc, max_chars=max_chars, tag_chars=tag_chars,
                            tag_num=tag_num)
    before, placeholder, after = template.partition("{{POST_JSON}}")
    builder = PromptBuilder().message("user").add(TASK, SUMMARY_TASK, before)
    if placeholder:
        builder.add_input(payload, name="post")
    return builder.add(TASK, SUMMARY_TASK, after).build()


def render_summary_prompt(**kwargs: Any) -> str:
    """`summary_prompt`'s one message as text."""
    return summary_prompt(**kwargs).messages[0]["content"]
