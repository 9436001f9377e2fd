"""The API's one JSON parser: strict JSON, no unstorable characters.

The nesting depth was measured before any view ran (sns.input_limits, with
`json_depth` below); a RecursionError is still a parse error here, never a 500.
NUL and lone surrogates (`"\\u0000"`, `"\\ud800"`) are refused once here for every
route, named by the top-level key they were sent under.
"""

from __future__ import annotations

import codecs
import re

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.utils import json

from sns.core.errors import InvalidInput
from sns.core.textguard import first_invalid_key

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


class BoundedJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = codecs.getreader(encoding)(stream).read()
        except (UnicodeDecodeError, LookupError):
            raise ParseError("invalid body") from None
        try:
            # DRF's loads refuses NaN and Infinity, which no JSON renderer can echo.
            data = json.loads(text)
        except (ValueError, RecursionError):
            raise ParseError("invalid body") from None
        field = first_invalid_key(data)
        if field is not None:
            raise InvalidInput(f"{field} contains invalid characters")
        return data
