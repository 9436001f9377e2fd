"""Logging filters (stgy/settings.py LOGGING)."""

from __future__ import annotations

import logging


class PlainRefusals(logging.Filter):
    """A 403 or 404 is a refusal the site meant, not a fault: Django logs it with the
    exception's traceback, which buries real errors; keep the one-line warning."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) in (403, 404):
            record.exc_info = None
            record.exc_text = None
        return True
