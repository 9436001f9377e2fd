"""Characters no stored text may hold, and those that names and tags lose.

PostgreSQL refuses NUL in text columns, and a lone UTF-16 surrogate (JSON lets a
client send `\\ud800`) cannot be encoded as UTF-8 at all: either would surface as a
server error deep in the database driver, so both are refused at the boundary with
a 400 naming the field. Names and tags are shown inline next to other people's
text, where bidi overrides and invisible characters can disguise them ("admin" shown
for "nimda", "ad\\u200bmin" for "admin"); those characters are removed rather than
refused, since a name stays meaningful without them (one rule, `strip_invisible`).
A JSON body's nesting depth is measured here too (`json_depth`), before any view
parses it (sns/input_limits.py).
"""

from __future__ import annotations

import re
import unicodedata

from .errors import InvalidInput

_INVALID = re.compile("[\x00\ud800-\udfff]")
# Unicode's Default_Ignorable_Code_Point (what renders as nothing: the soft hyphen, the
# zero-width characters, the word joiner, bidi controls, Hangul fillers, variation
# selectors, tag characters...) and the blank braille pattern, which renders as a space
# nobody can see; format characters (category Cf) and controls are found by category.
_IGNORABLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u2800\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)
# Two of them also build emoji: a zero-width joiner between two pictographs (family,
# profession and flag sequences) and a variation selector after one.
_ZWJ, _EMOJI_STYLE = "\u200d", ("\ufe0e", "\ufe0f")
# Long texts keep newlines and tabs (Markdown needs them) and their bidi characters
# (right-to-left writing uses them legitimately, and they cannot reach outside the
# post's own block); other C0 controls and DEL are dropped.
_LONG_TEXT_INVISIBLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def refuse_invalid(text: str, field: str) -> str:
    """`text` unchanged, or 400 `<field> contains invalid characters`."""
    if _INVALID.search(text):
        raise InvalidInput(f"{field} contains invalid characters")
    return text


def _hidden(ch: str) -> bool:
    if ch in "\t\n":
        return False  # whitespace, which each caller folds by its own rules
    return unicodedata.category(ch) in ("Cc", "Cf") or _IGNORABLE.match(ch) is not None


def _pictograph(ch: str) -> bool:
    # Symbols (most emoji) and modifiers (the skin tones).
    return unicodedata.category(ch) in ("So", "Sk")


def strip_invisible(text: str) -> str:
    """A name or tag without the characters that show nothing — bidi controls, format
    characters such as the zero-width space and the soft hyphen, Unicode's other
    default-ignorable code points, control characters but tab and newline — except
    where they build an emoji (a zero-width joiner between two pictographs, a
    variation selector after one)."""
    if text.isascii() and text.isprintable():
        return text  # nothing to strip (the common case)
    kept: list[str] = []
    for index, ch in enumerate(text):
        if _hidden(ch):
            base = next((c for c in reversed(kept) if c not in _EMOJI_STYLE), "")
            following = text[index + 1 : index + 2]
            builds_emoji = bool(base) and _pictograph(base) and (
                ch in _EMOJI_STYLE or (ch == _ZWJ and bool(following) and _pictograph(following))
            )
            if not builds_emoji:
                continue
        kept.append(ch)
    return "".join(kept)

def clean_long_text(text: str, field: str) -> str:
    """Post content: refused if it holds NUL or a lone
    surrogate, otherwise stripped of control characters other than newline and tab
    (carriage returns are folded into newlines by the content normaliser first)."""
    refuse_invalid(text, field)
    return _LONG_TEXT_INVISIBLE.sub("", text)


def checked_text(value, field: str, *, max_length: int | None = None) -> str:
    """A string for a column: NUL and lone surrogates refused, length checked against
    the column so an over-long value is a 400, not a database error."""
    if not isinstance(value, str):
        raise InvalidInput(f"{field} must be a string")
    refuse_invalid(value, field)
    if max_length is not None and len(value) > max_length:
        raise InvalidInput(f"{field} is too long")
    return value


def first_invalid_key(data) -> str | None:
    """Where in a parsed JSON document a NUL or lone surrogate sits, named by its
    top-level key ("body" for a key or a non-object document); None if nowhere."""
    stack = [(data, None)]
    while stack:
        node, top = stack.pop()
        if isinstance(node, str):
            if _INVALID.search(node):
                return top or "body"
        elif isinstance(node, dict):
            for key, value in node.items():
                if _INVALID.search(key):
                    return top or "body"
                stack.append((value, top or key))
        elif isinstance(node, list):
            stack.extend((item, top) for item in node)
    return None


# Strings are skipped whole (escapes included), so brackets inside them never count.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


def json_depth(text: str, limit: int) -> int:
    """The nesting depth of a JSON text, counting stops once it passes `limit`."""
    depth = deepest = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
        elif token in "]}":
            depth -= 1
    return deepest
