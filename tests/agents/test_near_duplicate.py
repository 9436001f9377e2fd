"""Near-duplicates by meaning (agents/runs/near_duplicate.py), with the site's default
embedder (hash): a text repeating the sentences, or the meaning, of what the AI user or
the fleet wrote lately is refused; a text of its own passes; the recent texts' vectors
are embedded once."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from agents.runs.near_duplicate import RecentWrites
from sns import services
from sns.services import messages
from tests.factories import make_ai_user, make_user

pytestmark = pytest.mark.django_db

STARTER = "My rye sourdough starter finally doubled overnight at 24 degrees. Next I want to try a longer cold proof."
REWORDED = "At 24 degrees my rye sourdough starter doubled overnight, finally! Next I will try a longer cold proof."
OWN = "The harbour's tide tables changed this spring, and the ferry now leaves an hour earlier."


@pytest.fixture(autouse=True)
def _hash_embedder(settings):
    settings.STGY_EMBEDDING_PROVIDER = "hash"
    settings.STGY_AI_PROVIDER = "none"  # no summary task for the posts written here
    cache.clear()


def test_the_same_sentences_are_refused_by_the_sentence_measure():
    ai = make_ai_user("Aiko")
    services.post_create(make_ai_user("Bram"), content=STARTER, tags=[])
    why = RecentWrites.load(ai.id).refusal(STARTER + " (offline stand-in)")
    assert why == "2 of its 2 sentences were written lately by AI users (limit 50%)"


def test_a_reworded_copy_is_refused_by_meaning(settings):
    ai = make_ai_user("Aiko")
    services.post_create(ai, content=STARTER, tags=[])
    why = RecentWrites.load(ai.id).refusal(REWORDED)
    assert why is not None and why.startswith("similarity 0.9") and why.endswith("(limit 0.90)")
    settings.STGY_AI_NEAR_DUPLICATE_SIMILARITY = 0.99
    assert RecentWrites.load(ai.id).refusal(REWORDED) is None


def test_a_text_of_its_own_passes():
    ai = make_ai_user("Aiko")
    services.post_create(ai, content=STARTER, tags=[])
    assert RecentWrites.load(ai.id).refusal(OWN) is None


def test_the_ai_users_own_messages_count_and_a_persons_posts_do_not():
    ai, person = make_ai_user("Aiko"), make_user("Mina")
    services.post_create(person, content=OWN, tags=[])
    assert RecentWrites.load(ai.id).refusal(OWN) is None
    messages.message_send(ai, person.id, content=STARTER)
    assert RecentWrites.load(ai.id).refusal(REWORDED) is not None


def test_what_a_run_wrote_counts_for_its_next_write():
    ai = make_ai_user("Aiko")
    recent = RecentWrites(ai.id)
    assert recent.refusal(STARTER) is None
    recent.add("p1", STARTER)
    assert recent.refusal(REWORDED) is not None


def test_each_recent_text_is_embedded_once(monkeypatch):
    from agents.runs import near_duplicate

    ai = make_ai_user("Aiko")
    for i in range(3):
        services.post_create(ai, content=f"{OWN} Number {i}.", tags=[])
    sizes = []
    real = near_duplicate.embed_texts

    def counting(texts, **kwargs):
        sizes.append(len(texts))
        return real(texts, **kwargs)

    monkeypatch.setattr(near_duplicate, "embed_texts", counting)
    RecentWrites.load(ai.id).refusal(STARTER)
    RecentWrites.load(ai.id).refusal(REWORDED)
    assert sizes == [1, 3, 1]  # the text, the three recent ones once, the next text alone
