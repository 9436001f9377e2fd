"""Building blocks for the cycle tests: crafted int8 vectors with exact cosines,
summaries and interests written as the summary task and the interest stage would
leave them, a model answer every stage parser accepts, and row counts."""

from __future__ import annotations

import json
from collections.abc import Iterable

import numpy as np
from django.test import override_settings
from django.utils import timezone

from agents.cycle import STAGES
from agents.embeddings import model_name
from agents.models import CycleRun, Interest, PeerImpression, PostImpression, PostSummary
from sns.models import Follow, Like, Post, Repost
from tests.factories import make_ai_user, make_post, make_user

BASE_DIMS = 100  # the interest direction used by crafted vectors: dims 0..99 set to +1


def int8_bytes(values: dict[int, int], dim: int = 512) -> bytes:
    """512 signed bytes, zero except `values` ({dim: int8}); ±127 decodes to exactly ±1."""
    q = np.zeros(dim, dtype=np.int8)
    for index, value in values.items():
        q[index] = value
    return q.tobytes()


def base_vector() -> bytes:
    return int8_bytes({i: 127 for i in range(BASE_DIMS)})


def vector_with_cosine(hundredths: int) -> bytes:
    """A vector whose decoded cosine with `base_vector()` is exactly hundredths/100:
    |k| of the base dims carry sign(k), the other 100-|k| ones sit outside the base."""
    k = abs(hundredths)
    sign = 127 if hundredths >= 0 else -127
    values = {i: sign for i in range(k)}
    values.update({BASE_DIMS + i: 127 for i in range(BASE_DIMS - k)})
    return int8_bytes(values)


def summarise(
    post: Post, features: bytes, *, model: str | None = None, text: str | None = None
) -> None:
    """Give `post` a finished summary with the given vector (as the summary task would)."""
    PostSummary.objects.update_or_create(
        post=post,
        defaults={
            "source_updated_at": post.created_at,
            "summary": text if text is not None else f"Summary: {post.content[:80]}",
            "features": features,
            "embedding_model": model or model_name(),
            "summarized_at": timezone.now(),
        },
    )


def unsummarise(post: Post) -> None:
    PostSummary.objects.filter(post=post).update(summary=None, features=None, summarized_at=None)


def give_interest(
    user,
    features: bytes,
    *,
    model: str | None = None,
    text: str = "Fermentation and bread",
    tags: Iterable[str] = ("bread", "fermentation"),
    updated_at=None,
) -> Interest:
    interest, _ = Interest.objects.update_or_create(
        user=user,
        defaults={
            "interest": text,
            "tags": sorted(tags),
            "features": features,
            "embedding_model": model or model_name(),
            "updated_at": updated_at or timezone.now(),
        },
    )
    return interest


# One answer every AI-user parser accepts (each reads only its own keys): the model
# says yes to everything, so only the code's own rules decide what happens.
UNIVERSAL = {
    "impression": "A thoughtful post about bread and fermentation.",
    "tags": ["bread", "fermentation"],
    "shouldLike": True,
    "shouldReply": True,
    "shouldFollow": True,
    "interest": "Sourdough starters, fermentation science and rye bread.",
    "content": "Lovely point about the starter; how warm do you keep it?",
    "summary": "A note about bread.",
    "keywords": ["bread"],
}
# Posts and users are judged several to a call (agents/cycle/impressions.py): the same
# yes for each item a call may number.
UNIVERSAL["impressions"] = [
    {"n": n, **{k: UNIVERSAL[k] for k in ("impression", "tags", "shouldLike", "shouldReply", "shouldFollow")}}
    for n in range(1, 21)
]


def answer(**overrides) -> str:
    data = UNIVERSAL | overrides
    if "impressions" not in overrides:  # an override of an item key holds for every item
        data["impressions"] = [{**e, **{k: v for k, v in overrides.items() if k in e}} for e in UNIVERSAL["impressions"]]
    return json.dumps(data)


def push_answers(server, count: int = 60, *, delay: float = 0.0, **overrides) -> None:
    """`count` answers; unless a test sets the content, each answer's text is its own
    (numbered inside its first sentence), as a model's would be: the near-duplicate check
    (agents/runs/near_duplicate.py) refuses a text an AI user wrote lately."""
    for i in range(count):
        # Numbered first: the test server's vector is seeded from a text's first bytes.
        own = {} if "content" in overrides else {"content": f"Note {i + 1}: lovely point about the starter; how warm do you keep it?"}
        server.push_chat(answer(**own, **overrides), delay=delay)


def row_counts(user) -> dict[str, int]:
    """Everything a cycle of `user` can write, counted."""
    return {
        "post_impressions": PostImpression.objects.filter(user=user).count(),
        "peer_impressions": PeerImpression.objects.filter(user=user).count(),
        "likes": Like.objects.filter(user=user).count(),
        "reposts": Repost.objects.filter(user=user).count(),
        "posts": Post.objects.filter(owner=user, reply_to__isnull=True).count(),
        "replies": Post.objects.filter(owner=user, reply_to__isnull=False).count(),
        "followees": Follow.objects.filter(follower=user).count(),
        "interests": Interest.objects.filter(user=user).count(),
    }


def assert_all_stages_recorded(run: CycleRun) -> None:
    run.refresh_from_db()
    assert set(run.stages) == set(STAGES), run.stages  # jsonb keeps no key order
    for stage, record in run.stages.items():
        assert record["outcome"] in ("ok", "skipped", "failed"), (stage, record)
        assert isinstance(record["ms"], int) and record["ms"] >= 0, (stage, record)


PERSONALITY = "A retired lighthouse keeper who writes haiku about storms."
INTRODUCTION = "I bake **sourdough** bread and ferment miso at home."


def make_site(*, cosines: Iterable[int] = (100, 100)):
    """An AI user whose interest is `base_vector()`, and one post per cosine (in
    hundredths) by a different person, its vector at that cosine to the interest. The
    posts are written with the AI off (no summary call), then summarised with the
    crafted vectors. Returns (ai_user, [posts in the order of `cosines`])."""
    ai = make_ai_user("Aiko", personality=PERSONALITY, introduction=INTRODUCTION)
    posts = []
    with override_settings(STGY_AI_PROVIDER="none"):
        for i, hundredths in enumerate(cosines):
            author = make_user(f"Person{i}")
            posts.append(make_post(author, f"Post {i} about sourdough bread (cos {hundredths})"))
            summarise(posts[-1], vector_with_cosine(hundredths))
    give_interest(ai, base_vector())
    return ai, posts
