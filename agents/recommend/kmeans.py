"""Deterministic K-means for per-user seeds (docs/summaries-and-vectors.md §7.5).

The initial centroids come from a Fisher–Yates shuffle driven by mulberry32 seeded from
the user id, exactly as the original, so one user's clusters are the same in every
process and every run.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

MASK = 0xFFFFFFFF
MAX_ITERATIONS = 100


def _imul(a: int, b: int) -> int:
    return (a * b) & MASK


def mulberry32(seed: int) -> Callable[[], float]:
    """The mulberry32 generator: floats in [0, 1), bit-exact with the JavaScript one."""
    state = seed & MASK

    def next_float() -> float:
        nonlocal state
        state = (state + 0x6D2B79F5) & MASK
        t = _imul(state ^ (state >> 15), 1 | state)
        t = ((t + _imul(t ^ (t >> 7), 61 | t)) & MASK) ^ t
        return ((t ^ (t >> 14)) & MASK) / 2**32

    return next_float


def user_seed(user_id: int) -> int:
    """The integer value of the last 8 hex digits of the user's 16-digit id."""
    return (user_id & 0xFFFFFFFFFFFFFFFF) & MASK


def shuffled_indices(n: int, rnd: Callable[[], float]) -> list[int]:
    order = list(range(n))
    for i in range(n - 1, 0, -1):
        j = math.floor(rnd() * (i + 1))
        order[i], order[j] = order[j], order[i]
    return order


def kmeans_labels(points: np.ndarray, k: int, seed: int) -> list[int]:
    """Cluster label of each row of `points` (squared Euclidean, no re-normalisation;
    an empty cluster keeps its centroid; ties go to the lowest label)."""
    n = len(points)
    init = shuffled_indices(n, mulberry32(seed))[:k]
    centroids = points[init].astype(np.float64, copy=True)
    labels = np.full(n, -1)
    for _ in range(MAX_ITERATIONS):
        distances = ((points[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2)
        new_labels = distances.argmin(axis=1)
        if np.array_equal(new_labels, labels):
            break
        labels = new_labels
        for c in range(k):
            members = points[labels == c]
            if len(members):
                centroids[c] = members.mean(axis=0)
    return [int(label) for label in labels]
