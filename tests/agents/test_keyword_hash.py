import pytest

from agents.keyword_hash import fnv1a32, pack_hashes, unpack_hashes


@pytest.mark.parametrize(
    ("text", "expected"),
    [("", 2166136261), ("a", 3826002220), ("postgresql", 787029587), ("推薦システム", 3315491241)],
)
def test_fnv1a32_matches_spec(text, expected):
    assert fnv1a32(text) == expected


def test_pack_is_big_endian_and_round_trips():
    data = pack_hashes([1, 0xDEADBEEF, 787029587])
    assert data[:8] == b"\x00\x00\x00\x01\xde\xad\xbe\xef"
    assert len(data) == 12
    assert unpack_hashes(data) == [1, 0xDEADBEEF, 787029587]


def test_pack_empty():
    assert pack_hashes([]) == b""
    assert unpack_hashes(b"") == []


def test_unpack_rejects_partial_value():
    with pytest.raises(ValueError):
        unpack_hashes(b"\x00\x00\x00\x01\x02")
