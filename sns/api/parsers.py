"""The API's one JSON parser: strict JSON, no unstorable characters.

The nesting depth was measured before any view ran (sns.input_limits, with
`sns.core.textguard.json_depth`); a RecursionError is still a parse error here, never
a 500.
NUL and lone surrogates (`"\\u0000"`, `"\\ud800"`) are refused once here for every
route, named by the top-level key they were sent under.
"""

from __future__ import annotations

import codecs

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.utils import json

from sns.core.errors import InvalidInput
from sns.core.textguard import first_invalid_key


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
