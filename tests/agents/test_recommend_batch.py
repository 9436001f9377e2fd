"""The batched vector arithmetic agrees with the one-vector functions it replaces."""

import numpy as np
import pytest

from agents.recommend.batch import cosines, decode_by_length, decode_rows, similarity_scores, sum_cosine, unit_rows
from agents.vectors import cosine, decode_features, l2_normalize, similarity_score


def _blobs(n: int, dim: int = 64, seed: int = 3) -> list[bytes]:
    rng = np.random.default_rng(seed)
    return [rng.integers(-127, 128, dim).astype(np.int8).tobytes() for _ in range(n)]


def test_decode_rows_gives_exactly_what_decode_features_gives():
    blobs = _blobs(20)
    matrix, ok = decode_rows(blobs)
    assert ok.all()
    for row, blob in zip(matrix, blobs):
        assert np.array_equal(row, decode_features(blob))


def test_a_row_with_the_byte_outside_the_codec_is_flagged():
    good, other = _blobs(2)
    bad = bytes([0x80]) + good[1:]  # -128
    with pytest.raises(ValueError):
        decode_features(bad)
    _, ok = decode_rows([good, bad, other])
    assert ok.tolist() == [True, False, True]


def test_cosines_and_unit_rows_match_the_scalar_functions():
    matrix, _ = decode_rows(_blobs(10))
    matrix[3] = 0.0  # a zero vector: cosine 0, stays zero when normalised
    vec = decode_features(_blobs(1, seed=9)[0])
    expected = [cosine(row, vec) for row in matrix]
    assert np.allclose(cosines(matrix, vec), expected, rtol=0, atol=1e-12)
    assert cosines(matrix, vec)[3] == 0.0
    units = unit_rows(matrix)
    for unit, row in zip(units, matrix):
        assert np.allclose(unit, l2_normalize(row), rtol=0, atol=1e-15)
    assert not units[3].any()


def test_decode_by_length_skips_other_lengths_and_undecodable_blobs():
    a, b = _blobs(2)
    short = _blobs(1, dim=32)[0]
    bad = bytes([0x80]) + a[1:]
    out = decode_by_length({1: a, 2: short, 3: bad, 4: b, 5: b""}, 64)
    assert sorted(out) == [1, 4]
    assert np.array_equal(out[4], decode_features(b))


def test_similarity_scores_are_similarity_score_per_element():
    # numpy's exp takes a SIMD path on some CPUs (AVX-512) whose last bit can differ from
    # libm's, so the curve is the scalar one to within rounding rather than bit for bit.
    cos = np.concatenate([np.linspace(-1.0, 1.0, 4001), np.random.default_rng(5).uniform(-1, 1, 4000)])
    scores = similarity_scores(cos)
    expected = np.array([similarity_score(float(c)) for c in cos])
    assert np.abs(scores - expected).max() <= 4 * np.finfo(np.float64).eps
    ordered = scores[np.argsort(cos, kind="stable")]
    assert np.all(np.diff(ordered) >= 0)  # still a ranking: never lower for a higher cosine
    assert scores[0] == 0.0 and scores[4000] == 1.0


def test_sum_cosine_is_exactly_cosine():
    matrix, _ = decode_rows(_blobs(30, dim=512))
    total = matrix[0].copy()
    for row in matrix[1:]:
        assert sum_cosine(total, row) == cosine(total, row)
        total = total + row
    assert sum_cosine(np.zeros(512), matrix[1]) == cosine(np.zeros(512), matrix[1]) == 0.0
