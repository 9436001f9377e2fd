"""The default embedding model: hashed word and character n-grams, numpy only.

It needs no network, no model download and no GPU, works in any language, and gives the
same vector for the same text in every process (features are hashed with keyed BLAKE2b,
never Python's salted ``hash()``), which stored vectors require. It measures shared
vocabulary, not meaning: enough for "cooking posts look like other cooking posts" as an
offline default; semantic providers can replace it (docs/differences.md item 7).

Features, each hashed to one of ``dim`` buckets with a pseudo-random sign:
* word unigrams and bigrams. Words are runs of letters/digits (combining marks included),
  further split where the script changes between Han, hiragana and katakana, so unspaced
  Japanese yields word-like units (漢字 runs, カタカナ runs) rather than one token per
  sentence. A short list of function words is left out of the word features;
* character 3-grams over the text with punctuation removed and whitespace folded, which
  catch shared stems (grams straddling two words are skipped: mostly noise); plus
  character 2-grams inside runs of Chinese/Japanese characters, where two-character words
  (野菜, 東京) are common.
Counts are weighted ``1 + ln(tf)``. Each group is L2-normalised, then the groups are mixed
with fixed weights (words above character grams), so a long text's many character grams
cannot drown out its words.
"""

from __future__ import annotations

import hashlib
import re
import sys
import unicodedata
from collections import Counter
from functools import lru_cache

import numpy as np

_HASH_KEY = b"stgy-hash-v1"
_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
_HIRAGANA = "\u3041-\u309f"
_KATAKANA = "\u30a0-\u30ff\u31f0-\u31ff"
_UNSPACED = _HAN + _HIRAGANA + _KATAKANA
_UNSPACED_RUN = re.compile(f"[{_UNSPACED}]{{2,}}")

# Function words occur in every text; as word features they would make unrelated texts look
# alike. They still take part in character grams.
_STOPWORDS = frozenset(
    "a an the and or but if of to in on at by for with from as is are was were be been "
    "it its this that these those i you he she we they me my your our their not no so "
    "do does did have has had will would can could just than then there here".split()
)

# Relative weight of each feature group in the final vector.
_WEIGHT_WORD = 1.0
_WEIGHT_WORD_BIGRAM = 0.2
_WEIGHT_CHAR = 0.8


def _mark_ranges() -> str:
    """Combining marks as a character-class body: ``\\w`` omits them, which splits Hindi."""
    ranges: list[str] = []
    start: int | None = None
    for cp in range(sys.maxunicode + 2):
        is_mark = cp <= sys.maxunicode and unicodedata.category(chr(cp)).startswith("M")
        if is_mark and start is None:
            start = cp
        elif not is_mark and start is not None:
            ranges.append(f"{re.escape(chr(start))}-{re.escape(chr(cp - 1))}")
            start = None
    return "".join(ranges)


@lru_cache(maxsize=1)
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Word and separator patterns, built on first use so importing stays cheap."""
    word_char = rf"(?:[^\W_]|[{_mark_ranges()}])"
    word = re.compile(
        rf"[{_HAN}]+|[{_HIRAGANA}]+|[{_KATAKANA}]+|(?:(?![{_UNSPACED}]){word_char})+"
    )
    separator = re.compile(rf"(?:(?!{word_char})[\s\S])+")
    return word, separator


def _is_stopword(word: str) -> bool:
    # A lone hiragana character is nearly always a particle (は, を, の, に …).
    return word in _STOPWORDS or (len(word) == 1 and "\u3041" <= word <= "\u309f")


@lru_cache(maxsize=1 << 18)
def _feature_hash(feature: str) -> int:
    """64-bit keyed hash of a feature: the low bits pick the bucket, bit 63 the sign."""
    digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8, key=_HASH_KEY).digest()
    return int.from_bytes(digest, "little")


def _features(text: str) -> tuple[Counter[str], Counter[str], Counter[str]]:
    word_re, separator_re = _patterns()
    normal = unicodedata.normalize("NFKC", text).lower()
    words = [w for w in word_re.findall(normal) if not _is_stopword(w)]
    unigrams = Counter("w\x00" + w for w in words)
    bigrams = Counter(f"b\x00{a}\x00{b}" for a, b in zip(words, words[1:], strict=False))
    chars: Counter[str] = Counter()
    folded = separator_re.sub(" ", normal).strip()
    if folded:
        padded = f" {folded} "
        chars.update(
            "c\x00" + padded[i : i + 3] for i in range(len(padded) - 2) if padded[i + 1] != " "
        )
        for run in _UNSPACED_RUN.findall(folded):
            chars.update("c\x00" + run[i : i + 2] for i in range(len(run) - 1))
    return unigrams, bigrams, chars


def _group_matrix(groups: list[Counter[str]], dim: int) -> np.ndarray:
    """One row per text: signed, tf-weighted bucket sums of one feature group, L2-normalised."""
    sizes = [len(counts) for counts in groups]
    total = sum(sizes)
    hashes = np.fromiter(
        (_feature_hash(f) for counts in groups for f in counts), dtype=np.uint64, count=total
    )
    tfs = np.fromiter(
        (tf for counts in groups for tf in counts.values()), dtype=np.float64, count=total
    )
    rows = np.repeat(np.arange(len(groups)), sizes)
    cols = (hashes % np.uint64(dim)).astype(np.intp)
    signs = np.where(hashes >> np.uint64(63), -1.0, 1.0)
    matrix = np.zeros((len(groups), dim), dtype=np.float64)
    np.add.at(matrix, (rows, cols), signs * (1.0 + np.log(tfs)))
    return _unit_rows(matrix)


def _unit_rows(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0)


class HashEmbedder:
    """Deterministic offline text embedder producing L2-normalised float32 rows."""

    name = "hash-v1"
    dim = 512
    # A bag-of-n-grams cosine runs lower than a neural model's for the same relatedness
    # (on-topic pairs ~0.2-0.45, unrelated ~0.0-0.15 after the int8 codec). The cycle's
    # thresholds (like 0.5, reply and follow 0.6) are set on a neural model's scale, so
    # this model declares the affine map a*cos+b onto that scale (agents.embeddings.calibration).
    similarity_scale = (1.0, 0.35)

    def embed(self, texts: list[str]) -> np.ndarray:
        """Embed ``texts`` as an ``(n, 512)`` array; a text without letters or digits → zeros."""
        parsed = [_features(text) for text in texts]
        combined = (
            _WEIGHT_WORD * _group_matrix([p[0] for p in parsed], self.dim)
            + _WEIGHT_WORD_BIGRAM * _group_matrix([p[1] for p in parsed], self.dim)
            + _WEIGHT_CHAR * _group_matrix([p[2] for p in parsed], self.dim)
        )
        return _unit_rows(combined).astype(np.float32)
