"""Many stored vectors (and ids) at once: one numpy pass over a matrix instead of a Python loop
of `decode_features` / `cosine` calls (≈ 200 per recommendation, ≈ 100 per reading
choice). The element-wise arithmetic is that of `agents.vectors`."""

from __future__ import annotations

import math

import numpy as np
from django.db import connection
from django.db.models import Q
from django.db.models.expressions import RawSQL

from ..vectors import SIMILARITY_GAIN, SIMILARITY_MID, _logistic, decode_features


def _decoded_values() -> np.ndarray:
    """What `decode_features` gives for each of the 255 valid byte values, indexed by
    the byte as unsigned (128, i.e. -128, is outside the codec: NaN, never used)."""
    table = np.full(256, np.nan)
    signed = np.array([v for v in range(-127, 128)], dtype=np.int8)
    table[signed.view(np.uint8)] = decode_features(signed.tobytes())
    return table


_TABLE = _decoded_values()


def decode_rows(blobs: list[bytes]) -> tuple[np.ndarray, np.ndarray]:
    """Equal-length int8 blobs as a float matrix (row i = `decode_features(blobs[i])`)
    and a mask of the rows that decode at all (no byte -128, outside the codec).
    A byte has 255 possible values, so decoding is a table lookup, not a power per
    element (the table holds `decode_features`' own results)."""
    dim = len(blobs[0])
    q = np.frombuffer(b"".join(blobs), dtype=np.uint8).reshape(len(blobs), dim)
    ok = ~(q == 128).any(axis=1)
    return _TABLE[q], ok


def unit_rows(matrix: np.ndarray) -> np.ndarray:
    """Each row divided by its norm; zero rows stay zero (as `l2_normalize`)."""
    norms = np.linalg.norm(matrix, axis=1)
    safe = np.where(norms == 0.0, 1.0, norms)
    return np.where(norms[:, None] == 0.0, 0.0, matrix / safe[:, None])


def cosines(matrix: np.ndarray, vec: np.ndarray) -> np.ndarray:
    """Cosine of every row with `vec`, clamped to [-1, 1]; 0 where either is zero (as `cosine`)."""
    nv = float(np.linalg.norm(vec))
    norms = np.linalg.norm(matrix, axis=1)
    dots = matrix @ vec
    denom = norms * nv
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.clip(dots / np.where(denom == 0.0, 1.0, denom), -1.0, 1.0)
    return np.where(denom == 0.0, 0.0, out)


def sum_cosine(x: np.ndarray, y: np.ndarray) -> float:
    """`cosine` of two float vectors of one non-zero length, the same arithmetic
    (norms as square roots of the dot products, as numpy's norm of a vector) without
    its conversions and checks."""
    nx, ny = math.sqrt(x.dot(x)), math.sqrt(y.dot(y))
    if nx == 0.0 or ny == 0.0:
        return 0.0
    return min(1.0, max(-1.0, float(x.dot(y)) / (nx * ny)))


def decode_by_length(blobs: dict[int, bytes], dim: int | None = None) -> dict[int, np.ndarray]:
    """{key: decoded vector} for the blobs that decode (and have length `dim`, if given),
    decoded together per length."""
    groups: dict[int, list[int]] = {}
    for key, blob in blobs.items():
        if blob and (dim is None or len(blob) == dim):
            groups.setdefault(len(blob), []).append(key)
    out: dict[int, np.ndarray] = {}
    for keys in groups.values():
        matrix, ok = decode_rows([blobs[k] for k in keys])
        for i, key in enumerate(keys):
            if ok[i]:
                out[key] = matrix[i]
    return out


def ids_in(field: str, ids) -> Q:
    """`field IN ids` for a long list of ids. On PostgreSQL the list goes as one array
    parameter (`IN (SELECT unnest(%s))`) instead of one bound parameter per id: with
    hundreds of ids, preparing each parameter costs more CPU than the query itself."""
    ids = list(ids)
    if connection.vendor == "postgresql" and len(ids) > 20:
        return Q(**{f"{field}__in": RawSQL("SELECT unnest(%s::bigint[])", (ids,))})
    return Q(**{f"{field}__in": ids})


def _logistics(z: np.ndarray) -> np.ndarray:
    # `agents.vectors._logistic` per element: split by sign so exp never overflows.
    e = np.exp(-np.abs(z))
    return np.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def similarity_scores(cos: np.ndarray) -> np.ndarray:
    """`similarity_score` of every cosine in `cos` (the same curve, element-wise)."""
    low = _logistic(SIMILARITY_GAIN * (0.0 - SIMILARITY_MID))
    high = _logistic(SIMILARITY_GAIN * (1.0 - SIMILARITY_MID))
    x = (np.asarray(cos, dtype=np.float64) + 1.0) / 2.0
    value = (_logistics(SIMILARITY_GAIN * (x - SIMILARITY_MID)) - low) / (high - low)
    return np.minimum(1.0, np.maximum(0.0, value))
