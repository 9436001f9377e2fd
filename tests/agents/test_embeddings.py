"""The embedding space: provider choice, the openai embedder over the local server,
model-tagged vectors, the embedding inputs and `manage.py reembed`."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from django.core.management import call_command
from django.utils import timezone

from agents.embeddings import (
    UnsupportedEmbedder,
    embed_features,
    embed_texts,
    features_for_model,
    get_embedder,
    model_name,
)
from agents.embeddings.hash import HashEmbedder
from agents.embeddings.inputs import interest_embedding_input, post_embedding_input
from agents.llm.errors import LlmRequestError, LlmTransientError
from agents.models import AiPostTag, Interest, LlmUsage, MemoryVersion, PostSummary
from agents.vectors import encode_features
from tests.factories import make_post


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    """The cast logs in with force_login; a cheap hasher keeps user creation fast."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def test_hash_is_the_default(settings):
    settings.STGY_EMBEDDING_PROVIDER = "hash"
    assert isinstance(get_embedder(), HashEmbedder)
    assert model_name() == "hash-v1"
    features, name = embed_features("fermented vegetables and sourdough")
    assert name == "hash-v1" and len(features) == 512
    assert features == encode_features(HashEmbedder().embed(["fermented vegetables and sourdough"])[0])


def test_embed_texts_shapes(settings):
    settings.STGY_EMBEDDING_PROVIDER = "hash"
    matrix, name = embed_texts(["a cat", "a dog"])
    assert matrix.shape == (2, 512) and name == "hash-v1"
    empty, _ = embed_texts([])
    assert empty.shape == (0, 512)


def test_unknown_provider(settings):
    settings.STGY_EMBEDDING_PROVIDER = "telepathy"
    with pytest.raises(UnsupportedEmbedder):
        get_embedder()


def test_local_provider_without_the_package(settings, monkeypatch):
    settings.STGY_EMBEDDING_PROVIDER = "local"
    settings.STGY_EMBEDDING_LOCAL_MODEL = "not-installed-model"
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    assert model_name() == "local:not-installed-model"  # naming needs no package
    with pytest.raises(LlmRequestError, match="sentence-transformers"):
        embed_features("hello")


def test_openai_embedder_over_the_local_server(llm_server, ai_user, settings):
    settings.STGY_EMBEDDING_PROVIDER = "openai"
    settings.STGY_EMBEDDING_OPENAI_MODEL = "text-embedding-3-small"
    features, name = embed_features("hello world", user_id=ai_user.id, stage="t")
    assert name == "openai:text-embedding-3-small" and len(features) == 512
    (request,) = llm_server.embedding_requests()
    assert request.body["model"] == "text-embedding-3-small"
    assert request.body["dimensions"] == 512
    assert request.body["input"] == ["hello world"]
    row = LlmUsage.objects.get()
    assert (row.task, row.provider, row.outcome, row.user_id) == ("embedding", "openai", "ok", ai_user.id)
    assert row.prompt_tokens == 2


def test_openai_embedder_keeps_first_512_dims_of_other_models(llm_server, db, settings):
    settings.STGY_EMBEDDING_PROVIDER = "openai"
    settings.STGY_EMBEDDING_OPENAI_MODEL = "compatible-embedder"
    vector = list(np.linspace(-1, 1, 1024))
    llm_server.push_embedding(body={"data": [{"index": 0, "embedding": vector}], "usage": {"prompt_tokens": 1}})
    matrix, name = embed_texts(["x"])
    assert name == "openai:compatible-embedder"
    assert "dimensions" not in llm_server.embedding_requests()[0].body
    assert np.allclose(matrix[0], np.asarray(vector[:512], dtype=np.float32))


def test_openai_embedder_shares_the_retry_policy(llm_server, db, settings):
    settings.STGY_EMBEDDING_PROVIDER = "openai"
    settings.STGY_AI_MAX_RETRIES = 1
    llm_server.push_embedding(status=500, body={"error": {"message": "boom"}})
    llm_server.push_embedding()
    embed_features("retry me")
    assert len(llm_server.embedding_requests()) == 2
    llm_server.push_embedding(status=502, body={"error": {"message": "boom"}})
    llm_server.push_embedding(status=502, body={"error": {"message": "boom"}})
    with pytest.raises(LlmTransientError):
        embed_features("fail me")
    llm_server.push_embedding(status=400, body={"error": {"message": "bad"}})
    with pytest.raises(LlmRequestError):
        embed_features("bad input")
    assert len(llm_server.embedding_requests()) == 5


def test_features_for_model(settings):
    settings.STGY_EMBEDDING_PROVIDER = "hash"
    stored = bytes(range(10))
    assert features_for_model(stored, "hash-v1") == stored
    assert features_for_model(memoryview(stored), "hash-v1") == stored
    assert features_for_model(stored, "openai:text-embedding-3-small") is None
    assert features_for_model(stored, "") is None
    assert features_for_model(None, "hash-v1") is None


# ----------------------------------------------------------------------------- inputs


def test_post_embedding_input():
    text = post_embedding_input("  A summary. ", ["bread", "yeast"], "# Title\n\nSome   *bold*   text\n\n\nmore")
    assert text == "A summary.\n\nbread\nyeast\n\nTitle\nSome bold text\nmore"
    assert post_embedding_input("S", [], "") == "S"


def test_post_embedding_input_truncates_snippet(settings):
    settings.STGY_AI_SUMMARY_SUMMARY_LENGTH = 10
    assert post_embedding_input("S", [], "abcdefghijklmnop") == "S\n\nabcdefghij\u2026"


def test_interest_embedding_input():
    assert interest_embedding_input(" Cooking ", ["food", "bread"], "I *love* bread.") == (
        "Cooking\n\nfood\nbread\n\nI love bread."
    )
    # The server-side form of POST /interests: interest, blank line, tags.
    assert interest_embedding_input("Cooking", ["food"], "") == "Cooking\n\nfood"
    assert interest_embedding_input("Cooking", [], "") == "Cooking"


# ----------------------------------------------------------------------------- reembed


@pytest.fixture
def stale_rows(settings, human, ai_user):
    settings.STGY_AI_PROVIDER = "none"  # no summary task while we build rows by hand
    post = make_post(human, "Sourdough needs **time** and patience.", tags=["Baking"])
    PostSummary.objects.filter(post=post).update(
        summary="Notes on sourdough.", features=bytes(512), embedding_model="old-model",
        summarized_at=timezone.now(),
    )
    AiPostTag.objects.create(post=post, name="bread")
    pending = make_post(human, "Not summarised yet")
    PostSummary.objects.filter(post=pending).update(embedding_model="old-model")
    Interest.objects.create(
        user=ai_user, updated_at=timezone.now(), interest="Fermentation", tags=["food"],
        features=bytes(512), embedding_model="old-model",
    )
    return post, pending


def test_reembed_moves_stale_vectors_to_the_current_model(stale_rows, ai_user, settings, capsys):
    settings.STGY_EMBEDDING_PROVIDER = "hash"
    post, pending = stale_rows
    call_command("reembed", "--batch", "1")
    out = capsys.readouterr().out
    assert "post summaries: 1/1" in out and "interests: 1/1" in out
    summary = PostSummary.objects.get(post=post)
    assert summary.embedding_model == "hash-v1"
    expected_text = post_embedding_input("Notes on sourdough.", ["baking", "bread"], post.content)
    assert bytes(summary.features) == embed_features(expected_text)[0]
    assert PostSummary.objects.get(post=pending).embedding_model == "old-model"  # no summary yet
    interest = Interest.objects.get(user=ai_user)
    assert interest.embedding_model == "hash-v1"
    assert bytes(interest.features) == embed_features(
        interest_embedding_input("Fermentation", ["food"], ai_user.introduction)
    )[0]
    # The new vector is a version of the interest (agents/memory_versions.py).
    version = MemoryVersion.objects.filter(user=ai_user, kind="interest").latest("id")
    assert (version.source, version.embedding_model, bytes(version.features)) == (
        "admin", "hash-v1", bytes(interest.features)
    )
    call_command("reembed")  # nothing stale any more: a rerun touches nothing
    assert "done: 0 post summaries, 0 interests" in capsys.readouterr().out


def test_reembed_to_openai_over_the_local_server(stale_rows, llm_server, settings):
    settings.STGY_EMBEDDING_PROVIDER = "openai"
    settings.STGY_EMBEDDING_OPENAI_MODEL = "text-embedding-3-small"
    call_command("reembed")
    post, _ = stale_rows
    assert PostSummary.objects.get(post=post).embedding_model == "openai:text-embedding-3-small"
    assert Interest.objects.get().embedding_model == "openai:text-embedding-3-small"
    assert len(llm_server.embedding_requests()) == 2
