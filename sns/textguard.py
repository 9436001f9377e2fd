"""Characters no stored text may hold, and those that names and tags lose.

PostgreSQL refuses NUL in text columns, and a lone UTF-16 surrogate (JSON lets a
client send `\\ud800`) cannot be encoded as UTF-8 at all: either would surface as a
server error deep in the database driver, so both are refused at the boundary with
a 400 naming the field. Names and tags are shown inline next to other people's
text, where bidi overrides and invisible controls can disguise them ("admin" shown
for "nimda"); those characters are removed rather than refused, since a name stays
meaningful without them.
"""

from __future__ import annotations

import re

from .errors import InvalidInput

_INVALID = re.compile("[\x00\ud800-\udfff]")
# Bidi embeddings/overrides (202A–202E), isolates (2066–2069), LRM/RLM/ALM, and
# every C0/C1 control but tab and newline (whitespace, left to the callers' folding).
_INVISIBLE = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\x00-\x08\x0b-\x1f\x7f-\x9f]")
# Long texts keep newlines and tabs (Markdown needs them) and their bidi characters
# (right-to-left writing uses them legitimately, and they cannot reach outside the
# post's own block); other C0 controls and DEL are dropped.
_LONG_TEXT_INVISIBLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def refuse_invalid(text: str, field: str) -> str:
    """`text` unchanged, or 400 `<field> contains invalid characters`."""
    if _INVALID.search(text):
        raise InvalidInput(f"{field} contains invalid characters")
    return text


def strip_invisible(text: str) -> str:
    """A name or tag without bidi controls and control characters other than tab and
    newline (whitespace, which each caller folds by its own rules)."""
    return _INVISIBLE.sub("", text)


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
