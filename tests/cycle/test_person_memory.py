"""What AI users remember about a person, end to end through a cycle: after a cycle
reads her posts she sees its impressions (API and page); "forget me" removes them,
keeps the read markers (a later cycle does not read those posts again) and leaves her
nickname out of later prompts; with aiMemory "none" a cycle still reads (and may
answer) her posts but keeps only read markers, and the run record says so."""

from __future__ import annotations

import pytest
from django.db.models import Q

from agents.cycle.run import cycle_begin, run_cycle_sync, stage_execute
from agents.models import MemoryVersion, PeerImpression, PostImpression, Relationship
from agents.relationships import relationship_bump
from sns import services
from sns.models import Post
from tests.conftest import login_client

from .helpers import UNIVERSAL, make_site, push_answers
from .test_prompt_inputs import prompts_of

pytestmark = pytest.mark.django_db


def memory_of(person):
    return login_client(person).get(f"/api/users/{person.hex_id}/ai-memory")


def test_she_sees_what_a_cycle_remembered_and_forgetting_keeps_only_read_markers(
    model_server, settings
):
    settings.STGY_AI_USER_SKIP_INTEREST_UPDATE_DAYS = 0  # the interest stage runs in each cycle
    ai, (hers, other) = make_site(cosines=(100, 90))
    maya = hers.owner
    push_answers(model_server)
    first = run_cycle_sync(ai.id)
    assert {r["postId"] for r in first.details["reads"]} == {hers.hex_id, other.hex_id}
    relationship_bump(ai.id, maya.id, "reply")  # an answered reply, as the respond path counts it

    response = memory_of(maya)
    assert response.status_code == 200
    (item,) = response.json()
    assert item["aiUser"] == {"id": ai.hex_id, "nickname": "Aiko"}
    assert item["peerImpression"]["impression"] == UNIVERSAL["impression"]
    assert item["peerImpression"]["tags"] == UNIVERSAL["tags"]
    assert item["relationship"] == "stranger"  # the word, never the score
    (post,) = item["postImpressions"]
    assert post["postId"] == hers.hex_id
    assert post["excerpt"].startswith("Post 0 about sourdough bread")
    assert post["impression"] == UNIVERSAL["impression"]
    assert item["countPostImpressions"] == 1
    page = login_client(maya).get("/settings/ai-memory")
    assert page.status_code == 200
    assert UNIVERSAL["impression"] in page.content.decode() and "Aiko" in page.content.decode()

    about_her = MemoryVersion.objects.filter(Q(peer=maya) | Q(post__owner=maya))
    assert about_her.filter(kind__in=("peer", "post")).count() >= 2  # the cycle's writes were kept
    forgotten = login_client(maya).delete(f"/api/users/{maya.hex_id}/ai-memory")
    assert forgotten.status_code == 200
    assert forgotten.json() == {"peerImpressions": 1, "postImpressions": 1, "relationships": 1}
    assert memory_of(maya).json() == []
    assert not about_her.exists()  # and so were their earlier values
    assert MemoryVersion.objects.filter(peer=other.owner).exists()  # the other person's stay
    assert not PeerImpression.objects.filter(peer=maya).exists()
    assert not Relationship.objects.filter(peer=maya).exists()
    marker = PostImpression.objects.get(user=ai, post=hers)
    assert marker.payload == ""  # still read, with no text
    # The other person's memory is untouched.
    assert PeerImpression.objects.filter(user=ai, peer=other.owner).exists()
    assert PostImpression.objects.get(user=ai, post=other).payload != ""

    # A later cycle does not read the forgotten post again, nor does a later prompt
    # name her from what was stored: the interest stage reads stored memory only.
    model_server.requests.clear()
    push_answers(model_server)
    run = cycle_begin(ai.id)
    for stage in (
        "select_posts",
        "post_impressions",
        "peer_impressions",
        "likes_and_replies",
        "interest_update",
    ):
        stage_execute(run.pk, stage)
    run.refresh_from_db()
    assert hers.hex_id not in {r["postId"] for r in run.details.get("reads") or []}
    (interest_prompt,) = prompts_of(model_server, "## Task: current interests")
    assert other.owner.nickname in interest_prompt
    assert maya.nickname not in interest_prompt


def test_forgetting_one_ai_user_leaves_the_others(model_server):
    ai, (hers,) = make_site(cosines=(100,))
    maya = hers.owner
    push_answers(model_server)
    run_cycle_sync(ai.id)
    from tests.factories import make_ai_user

    other_ai = make_ai_user("Bo")
    PeerImpression.objects.create(
        user=other_ai, peer=maya, updated_at=hers.created_at, payload='{"impression": "kind"}'
    )
    client = login_client(maya)
    response = client.delete(f"/api/users/{maya.hex_id}/ai-memory?aiUserId={ai.hex_id}")
    assert response.json() == {"peerImpressions": 1, "postImpressions": 1, "relationships": 0}
    (left,) = memory_of(maya).json()
    assert (
        left["aiUser"]["id"] == other_ai.hex_id and left["peerImpression"]["impression"] == "kind"
    )


def test_with_ai_memory_none_a_cycle_keeps_read_markers_only(model_server):
    ai, (hers, other) = make_site(cosines=(100, 90))
    maya = hers.owner
    services.user_update(maya, maya.id, ai_memory="none")
    push_answers(model_server)
    run = run_cycle_sync(ai.id)

    assert PostImpression.objects.get(user=ai, post=hers).payload == ""
    assert not PeerImpression.objects.filter(user=ai, peer=maya).exists()
    assert PostImpression.objects.get(user=ai, post=other).payload != ""  # the others as before
    assert PeerImpression.objects.filter(user=ai, peer=other.owner).exists()
    # Her public post may still be answered.
    assert Post.objects.filter(owner=ai, reply_to=hers.id).exists()
    # The run record says why nothing was kept.
    assert run.stages["post_impressions"]["notRemembered"] == 1
    assert run.stages["peer_impressions"]["notRemembered"] == 1
    assert (
        run.details["peerDecisions"][maya.hex_id]["skipped"]
        == "the user does not let AI users remember them"
    )
    # No relationship is kept, whatever the exchange.
    relationship_bump(ai.id, maya.id, "reply")
    services.like_add(maya, Post.objects.filter(owner=ai).first().id)
    assert not Relationship.objects.filter(peer=maya).exists()
    assert memory_of(maya).json() == []
