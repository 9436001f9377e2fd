import base64
import math

import numpy as np
import pytest

from agents.vectors import (
    blend_interest,
    cosine,
    decode_features,
    encode_features,
    features_from_b64,
    features_to_b64,
    l2_normalize,
    sigmoidal_contrast,
    similarity_score,
)


def as_ints(data: bytes) -> list[int]:
    return np.frombuffer(data, dtype=np.int8).tolist()


def to_bytes(values: list[int]) -> bytes:
    return np.asarray(values, dtype=np.int8).tobytes()


@pytest.mark.parametrize(
    ("values", "kwargs", "expected"),
    [
        ([1, 0.25], {"dim": 2, "percentile": 1}, [127, 48]),
        ([1, 0, -1], {"dim": 3, "percentile": 0.95}, [127, 0, -127]),
        (
            [0.5, -0.5, 0.25, -0.125, 0.0625],
            {"dim": 5, "percentile": 0.97},
            [127, -127, 78, -48, 30],
        ),
        ([], {"dim": 3}, [0, 0, 0]),
        ([0, 0, 0], {"dim": 3}, [0, 0, 0]),
    ],
)
def test_encode_vectors(values, kwargs, expected):
    assert as_ints(encode_features(values, **kwargs)) == expected


def test_encode_sine_vector_and_base64():
    data = encode_features([math.sin(i + 1) * 0.05 for i in range(600)])
    assert len(data) == 512
    assert as_ints(data)[:12] == [113, 119, 32, -105, -123, -52, 95, 126, 68, -83, -127, -82]
    text = features_to_b64(data)
    assert len(text) == 684
    assert text.startswith("cXcgl4XMX35ErYGuRX5ey4SYIndw+4+J4Wl7M6GC")


def test_encode_rounds_half_up_like_js():
    # With gamma 1 and scale 127 the products are exactly ±63.5 and 62.5; Python's round()
    # would give -64 and 62.
    values = [127.0, -63.5, 63.5, 62.5]
    assert as_ints(encode_features(values, dim=4, percentile=1, gamma=1)) == [127, -63, 64, 63]


def test_encode_pads_and_truncates_to_dim():
    assert len(encode_features([1.0] * 600)) == 512
    assert as_ints(encode_features([1.0], dim=4)) == [127, 0, 0, 0]


def test_encode_scale_falls_back_to_max_when_percentile_is_zero():
    assert as_ints(encode_features([0, 0, 0, 0.5], dim=4, percentile=0.5)) == [0, 0, 0, 127]


def test_encode_never_produces_minus_128():
    values = np.linspace(-5, 5, 512)
    assert min(as_ints(encode_features(values))) == -127


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_encode_rejects_non_finite(bad):
    with pytest.raises(ValueError):
        encode_features([0.1, bad])


def test_decode_vector():
    out = decode_features(to_bytes([127, 64, -1, 0, -127]))
    assert out.dtype == np.float64
    np.testing.assert_allclose(out, [1, 0.3756844, -0.0009875659, 0, -1], rtol=1e-6)


def test_decode_length_follows_bytes():
    assert decode_features(bytes(7)).shape == (7,)


def test_decode_rejects_minus_128():
    with pytest.raises(ValueError):
        decode_features(to_bytes([0, -128]))


def test_base64_round_trip_and_leniency():
    data = encode_features([math.cos(i) for i in range(512)])
    text = features_to_b64(data)
    assert features_from_b64(text) == data
    assert features_from_b64(text.rstrip("=")) == data
    urlsafe = base64.urlsafe_b64encode(data).decode()
    assert features_from_b64(urlsafe) == data
    spaced = "\n".join(text[i : i + 60] for i in range(0, len(text), 60))
    assert features_from_b64(spaced) == data
    assert features_from_b64("") == b""


def test_l2_normalize():
    np.testing.assert_allclose(l2_normalize([3, 4]), [0.6, 0.8])
    np.testing.assert_array_equal(l2_normalize([0, 0]), [0, 0])


def test_cosine():
    assert cosine([1, 0], [0, 1]) == 0
    assert cosine([1, 2], [2, 4]) == pytest.approx(1.0)
    assert cosine([1, 2], [-1, -2]) == pytest.approx(-1.0)
    assert cosine([0, 0], [1, 1]) == 0
    assert -1.0 <= cosine([1e-300, 1e-300], [1e-300, 1e-300]) <= 1.0


@pytest.mark.parametrize(("a", "b"), [([1, 2], [1, 2, 3]), ([], [])])
def test_cosine_rejects_bad_lengths(a, b):
    with pytest.raises(ValueError):
        cosine(a, b)


@pytest.mark.parametrize(
    ("cos", "score"),
    [
        (-1, 0.0),
        (-0.5, 0.070104),
        (0, 0.264771),
        (0.2, 0.394850),
        (0.4, 0.549959),
        (0.5, 0.632386),
        (0.6, 0.714812),
        (0.7, 0.794729),
        (0.8, 0.869921),
        (0.9, 0.938698),
        (1, 1.0),
    ],
)
def test_similarity_score_table(cos, score):
    assert round(similarity_score(cos), 6) == pytest.approx(score, abs=1e-12)


def test_sigmoidal_contrast_is_clamped_and_stable():
    assert sigmoidal_contrast(0.0) == 0.0
    assert sigmoidal_contrast(1.0) == 1.0
    assert sigmoidal_contrast(-100.0) == 0.0
    assert sigmoidal_contrast(100.0) == 1.0
    # A huge gain must not overflow exp().
    assert sigmoidal_contrast(0.5, gain=2000.0) == pytest.approx(0.0, abs=1e-12)
    assert sigmoidal_contrast(0.9, gain=2000.0) == pytest.approx(1.0)


def test_blend_interest_without_old_is_reencoded_new():
    new = encode_features([math.sin(i) for i in range(512)])
    assert blend_interest(new, None, 0.5) == new


def test_blend_interest_mixes_old():
    new = encode_features([1.0, 0.0] + [0.0] * 510)
    old = encode_features([0.0, 1.0] + [0.0] * 510)
    blended = decode_features(blend_interest(new, old, 0.5))
    expected = l2_normalize([1.0, 0.5])
    assert cosine(blended[:2], expected) > 0.999
    assert blended[0] > blended[1] > 0


def test_blend_interest_rejects_dimension_mismatch():
    with pytest.raises(ValueError):
        blend_interest(bytes(512), bytes(256), 0.5)
