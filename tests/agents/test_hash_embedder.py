import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from agents.embeddings.hash import HashEmbedder
from agents.vectors import cosine

REPO = Path(__file__).resolve().parents[2]

COOKING_EN = [
    "Cooking pasta tonight: fresh tomatoes, garlic and basil, simmered into a quick sauce.",
    "My pasta sauce recipe: roast the garlic, simmer the tomatoes, finish with fresh basil.",
]
DATABASE_EN = "PostgreSQL query planner picks an index scan when the table statistics are current."
COOKING_JA = [
    "今日は野菜たっぷりのカレーを作りました。玉ねぎをじっくり炒めるのがコツです。",
    "カレー作りのコツは玉ねぎを飴色になるまで炒めること。野菜は大きめに切ります。",
]
DATABASE_JA = "データベースのインデックス設計とクエリの実行計画について調べています。"


@pytest.fixture(scope="module")
def embedder() -> HashEmbedder:
    return HashEmbedder()


def test_identity(embedder):
    assert embedder.name == "hash-v1"
    assert embedder.dim == 512


def test_shape_dtype_and_unit_rows(embedder):
    out = embedder.embed(["hello world", "日本語のテキスト", "x"])
    assert out.shape == (3, 512)
    assert out.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, rtol=1e-5)


def test_empty_input_list(embedder):
    assert embedder.embed([]).shape == (0, 512)


@pytest.mark.parametrize("text", ["", "   ", "!!! ... ???"])
def test_texts_without_words_give_zero_rows(embedder, text):
    out = embedder.embed([text, "real words"])
    assert not out[0].any()
    assert out[1].any()


def test_deterministic_and_batch_independent(embedder):
    alone = embedder.embed([COOKING_EN[0]])[0]
    batched = embedder.embed([DATABASE_EN, COOKING_EN[0]])[1]
    np.testing.assert_array_equal(alone, batched)


def test_deterministic_across_processes(embedder):
    # Python's hash() is salted per process; stored vectors need the same result everywhere.
    code = (
        "from agents.embeddings.hash import HashEmbedder;"
        "import sys; sys.stdout.write(HashEmbedder().embed([sys.argv[1]]).tobytes().hex())"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, COOKING_JA[0]],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONHASHSEED": "12345", "PYTHONPATH": str(REPO)},
    )
    assert bytes.fromhex(result.stdout) == embedder.embed([COOKING_JA[0]]).tobytes()


def test_case_and_width_are_normalised(embedder):
    a, b = embedder.embed(["PostgreSQL ＩＮＤＥＸ", "postgresql index"])
    np.testing.assert_allclose(a, b)


@pytest.mark.parametrize(
    ("same", "other"),
    [(COOKING_EN, DATABASE_EN), (COOKING_JA, DATABASE_JA)],
    ids=["english", "japanese"],
)
def test_same_topic_is_closer(embedder, same, other):
    first, second, unrelated = embedder.embed([same[0], same[1], other])
    related = cosine(first, second)
    assert related > 0.25
    assert related > cosine(first, unrelated) + 0.15
    assert related > cosine(second, unrelated) + 0.15


def test_word_order_matters_a_little(embedder):
    a, b, c = embedder.embed(["garlic bread recipe", "recipe bread garlic", "garlic bread recipe"])
    assert cosine(a, c) == pytest.approx(1.0)
    assert 0.5 < cosine(a, b) < 1.0


def test_batch_equals_one_by_one(embedder):
    # A batch of a thousand is what the summary backfill sends; each row must be the
    # vector the text gets alone (speed is bench/'s business, not a test's).
    rng = np.random.default_rng(7)
    vocab = "cooking garlic pasta index query server telescope 料理 東京 データ the and of".split()
    texts = [" ".join(rng.choice(vocab, size=20)) + f" item{i}" for i in range(1000)]
    out = embedder.embed(texts)
    assert out.shape == (1000, 512)
    for i in (0, 1, 499, 999):
        assert np.allclose(out[i], embedder.embed([texts[i]])[0])
    assert not np.allclose(out[0], out[1])
