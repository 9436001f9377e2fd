"""64-bit ids: `unix_ms << 20 | worker << 12 | seq`, shown as 16 upper-case hex digits.

The creation time of any row keyed by such an id is `id >> 20` milliseconds since the
epoch, so posts and users store no separate creation timestamp.
"""

from __future__ import annotations

import os
import re
import threading
import time
from datetime import datetime, timezone

from django.conf import settings

from .errors import InvalidInput

_HEX_ID = re.compile(r"^(0x)?[0-9a-fA-F]{1,16}$")
_SEQ_BITS = 12
_WORKER_BITS = 8
_MAX_SEQ = (1 << _SEQ_BITS) - 1


class IdIssuer:
    """Issues strictly increasing ids; the clock never goes backwards."""

    def __init__(self, worker_id: int):
        if not 0 <= worker_id <= 255:
            raise ValueError("worker id must be in 0..255")
        self.worker_id = worker_id
        self._lock = threading.Lock()
        self._last_ms = 0
        self._seq = 0

    def issue(self) -> int:
        with self._lock:
            now_ms = max(int(time.time() * 1000), self._last_ms)
            if now_ms == self._last_ms:
                self._seq += 1
                if self._seq > _MAX_SEQ:
                    # Borrow the next millisecond rather than fail: ids stay unique and ordered.
                    now_ms += 1
                    self._seq = 0
            else:
                self._seq = 0
            self._last_ms = now_ms
            return (now_ms << (_SEQ_BITS + _WORKER_BITS)) | (self.worker_id << _SEQ_BITS) | self._seq


_issuer: IdIssuer | None = None
_issuer_pid: int | None = None


def new_id() -> int:
    """A fresh id. Without a configured worker id each process takes one from its pid,
    so web and Celery processes sharing a database rarely meet in one millisecond."""
    global _issuer, _issuer_pid
    pid = os.getpid()
    if _issuer is None or _issuer_pid != pid:
        configured = settings.STGY_ID_ISSUE_WORKER_ID
        _issuer = IdIssuer(configured if configured is not None else pid % 256)
        _issuer_pid = pid
    return _issuer.issue()


def id_to_hex(value: int) -> str:
    return f"{value & 0xFFFFFFFFFFFFFFFF:016X}"


def parse_id(value, field: str = "id") -> int:
    """Parse a hex id from user input; a malformed one is a 400, never a 500."""
    text = str(value or "").strip()
    if not _HEX_ID.match(text):
        raise InvalidInput(f"invalid {field}")
    number = int(text[2:] if text[:2].lower() == "0x" else text, 16)
    # Ids are stored as signed BIGINT; values >= 2^63 come back negative.
    return number - (1 << 64) if number >= (1 << 63) else number


def id_to_datetime(value: int) -> datetime:
    return datetime.fromtimestamp((value >> 20) / 1000, tz=timezone.utc)


def min_id_at(moment: datetime) -> int:
    """The smallest id that can have been issued at or after `moment`."""
    return int(moment.timestamp() * 1000) << 20


def max_id_at(moment: datetime) -> int:
    return ((int(moment.timestamp() * 1000) + 1) << 20) - 1


class HexIdentified:
    """For models keyed by a 64-bit id: the id as clients see it."""

    @property
    def hex_id(self) -> str:
        return id_to_hex(self.id)


class IdDated(HexIdentified):
    """For models whose id was issued at creation: the creation time it carries."""

    @property
    def created_at(self) -> datetime:
        return id_to_datetime(self.id)
