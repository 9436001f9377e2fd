"""Logging filters (stgy/settings/core.py LOGGING)."""

from __future__ import annotations

import logging
import re


class PlainRefusals(logging.Filter):
    """A 403 or 404 is a refusal the site meant, not a fault: Django logs it with the
    exception's traceback, which buries real errors; keep the one-line warning."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) in (403, 404):
            record.exc_info = None
            record.exc_text = None
        return True


# A personal access token (sns/auth/token.py TOKEN_PREFIX and its urlsafe secret).
_TOKEN = re.compile(r"stgy_pat_[A-Za-z0-9_-]+")


class SecretsRedacted(logging.Filter):
    """No personal access token reaches a log line, whatever put it in the message (an
    exception's text, a header echoed in an error): it is written `stgy_pat_…`."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "stgy_pat_" in message:
            record.msg, record.args = _TOKEN.sub("stgy_pat_…", message), None
        if record.exc_text and "stgy_pat_" in record.exc_text:
            record.exc_text = _TOKEN.sub("stgy_pat_…", record.exc_text)
        return True
