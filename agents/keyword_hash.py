"""Keyword hashes (docs/summaries-and-vectors.md §6).

Post keywords are stored as 32-bit FNV-1a hashes rather than strings: recommendation only
needs equality, and fixed-width hashes pack into one compact column. The function and byte
order match the original so stored hashes and API values stay compatible.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable

FNV_OFFSET = 2166136261
FNV_PRIME = 16777619
_MASK = 0xFFFFFFFF


def fnv1a32(s: str) -> int:
    """32-bit FNV-1a over the UTF-8 bytes of ``s``."""
    h = FNV_OFFSET
    for byte in s.encode("utf-8"):
        h = ((h ^ byte) * FNV_PRIME) & _MASK
    return h


def pack_hashes(hashes: Iterable[int]) -> bytes:
    """Concatenate hashes as big-endian uint32 values (the storage form)."""
    values = [int(h) & _MASK for h in hashes]
    return struct.pack(f">{len(values)}I", *values)


def unpack_hashes(data: bytes) -> list[int]:
    """Inverse of ``pack_hashes``; a length that is not a multiple of 4 is corrupt."""
    if len(data) % 4:
        raise ValueError(f"keyword hash data length {len(data)} is not a multiple of 4")
    return list(struct.unpack(f">{len(data) // 4}I", data))
