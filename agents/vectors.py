"""Feature vectors: the int8 codec of the original STGY and the helpers built on it.

Every stored vector (post summaries, AI-user interests) is 512 signed bytes produced by
``encode_features`` (docs/summaries-and-vectors.md §2). Keeping the codec bit-exact with the
original means stored vectors, test vectors and base64 transport strings stay
interchangeable, so rounding follows JavaScript's ``Math.round`` (``floor(x + 0.5)``), not
Python's banker's rounding.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
from collections.abc import Sequence

import numpy as np

DIM = 512
PERCENTILE = 0.97
GAMMA = 0.7
SIMILARITY_GAIN = 5.0
SIMILARITY_MID = 0.75

ArrayLike = Sequence[float] | np.ndarray


def encode_features(
    values: ArrayLike, dim: int = DIM, percentile: float = PERCENTILE, gamma: float = GAMMA
) -> bytes:
    """Quantise a float vector to ``dim`` signed bytes.

    Values are scaled by the ``percentile``-th largest magnitude (robust to a few outliers),
    clipped, and companded with ``gamma`` so small components keep some resolution.
    """
    source = np.asarray(values, dtype=np.float64).ravel()
    if not np.all(np.isfinite(source)):
        raise ValueError("feature vector contains a non-finite value")
    d = np.zeros(dim, dtype=np.float64)
    n = min(dim, source.size)
    d[:n] = source[:n]
    magnitudes = np.abs(d)
    index = min(max(math.floor((dim - 1) * percentile), 0), dim - 1)
    scale = float(np.sort(magnitudes)[index])
    if scale == 0.0:
        peak = float(magnitudes.max(initial=0.0))
        if peak == 0.0:
            return bytes(dim)
        scale = peak
    companded = np.power(np.minimum(magnitudes, scale) / scale, gamma)
    signed = np.where(d < 0, -companded, companded)
    quantised = np.clip(np.floor(signed * 127.0 + 0.5), -127, 127)
    return quantised.astype(np.int8).tobytes()


def decode_features(data: bytes) -> np.ndarray:
    """Inverse of ``encode_features`` (up to quantisation); length = number of bytes."""
    q = np.frombuffer(bytes(data), dtype=np.int8).astype(np.float64)
    if np.any(q == -128):
        raise ValueError("feature byte -128 is outside the codec range")
    x = q / 127.0
    return np.sign(x) * np.power(np.abs(x), 1.0 / GAMMA)


def features_to_b64(data: bytes) -> str:
    """Standard base64 with padding, the transport form used by the API."""
    return base64.b64encode(bytes(data)).decode("ascii")


_NOT_B64 = re.compile(r"[^A-Za-z0-9+/]")


def features_from_b64(text: str) -> bytes:
    """Decode base64 as leniently as the original server did (never rejects input).

    Accepts the URL-safe alphabet, missing padding and stray characters; stops at the first
    "=" and drops a dangling sixth-bit character, like Node's ``Buffer.from(s, "base64")``.
    """
    body = text.split("=", 1)[0].replace("-", "+").replace("_", "/")
    body = _NOT_B64.sub("", body)
    if len(body) % 4 == 1:
        body = body[:-1]
    body += "=" * (-len(body) % 4)
    try:
        return base64.b64decode(body)
    except binascii.Error:  # pragma: no cover - the cleaning above leaves valid input
        return b""


def l2_normalize(v: ArrayLike) -> np.ndarray:
    """``v`` divided by its Euclidean norm; a zero vector stays zero."""
    arr = np.asarray(v, dtype=np.float64)
    norm = float(np.linalg.norm(arr))
    if norm == 0.0:
        return np.zeros_like(arr)
    return arr / norm


def cosine(a: ArrayLike, b: ArrayLike) -> float:
    """Cosine similarity; 0 when either vector is zero so empty texts rank as unrelated."""
    x = np.asarray(a, dtype=np.float64).ravel()
    y = np.asarray(b, dtype=np.float64).ravel()
    if x.size != y.size or x.size == 0:
        raise ValueError(f"cosine needs equal non-zero lengths, got {x.size} and {y.size}")
    nx = float(np.linalg.norm(x))
    ny = float(np.linalg.norm(y))
    if nx == 0.0 or ny == 0.0:
        return 0.0
    return min(1.0, max(-1.0, float(np.dot(x, y)) / (nx * ny)))


def _logistic(z: float) -> float:
    # Split by sign so exp() never overflows for large |z|.
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def sigmoidal_contrast(
    x: float, gain: float = SIMILARITY_GAIN, mid: float = SIMILARITY_MID
) -> float:
    """Logistic curve rescaled so 0 → 0 and 1 → 1; sharpens differences around ``mid``."""
    low = _logistic(gain * (0.0 - mid))
    high = _logistic(gain * (1.0 - mid))
    value = (_logistic(gain * (x - mid)) - low) / (high - low)
    return min(1.0, max(0.0, value))


def similarity_score(cos: float) -> float:
    """Map a cosine in [-1, 1] to the reading-rank score used by AI users and recommendations."""
    return sigmoidal_contrast((cos + 1.0) / 2.0)


def blend_interest(new: bytes, old: bytes | None, h: float) -> bytes:
    """New interest vector with hysteresis: ``encode(L2(L2(new) + h·L2(old)))``.

    Mixing in the previous vector makes interests drift gradually instead of jumping with
    each cycle's reading; with no previous interest the new vector is used alone.
    """
    fresh = l2_normalize(decode_features(new))
    if old is None:
        previous = np.zeros_like(fresh)
    else:
        previous = l2_normalize(decode_features(old))
        if previous.size != fresh.size:
            raise ValueError(
                f"interest dimension mismatch: new {fresh.size}, old {previous.size}"
            )
    return encode_features(l2_normalize(fresh + h * previous))
