"""A cycle's memory writes (docs/agent-cycle.md, "Memory guards"): versions with the run
and stage, rewrites refused by the guards and recorded, blank items and unusable
batches, the admin's hold, and a restore the next cycle reads. The model is the local
OpenAI-compatible server, scripted answer by answer."""

from __future__ import annotations

import json

import pytest

from agents import memory
from agents.cycle import STAGES
from agents.cycle.run import cycle_begin, cycle_end, stage_execute
from agents.memory_versions import API
from agents.models import CycleRun, Interest, MemoryVersion, PeerImpression, PostImpression
from sns.core.ids import id_to_hex
from tests.conftest import login_client

from .helpers import UNIVERSAL, base_vector, give_interest, make_site, push_answers

pytestmark = pytest.mark.django_db

LONG = "Slow fermentation of rye and wheat doughs, " * 12  # 515 characters once stripped


def run_stages(ai, last: str) -> CycleRun:
    run = cycle_begin(ai.id)
    for stage in STAGES[: STAGES.index(last) + 1]:
        stage_execute(run.pk, stage)
    run.refresh_from_db()
    return run


def impressions_answer(*entries) -> str:
    return json.dumps({"impressions": list(entries)})


def item(n: int, **overrides) -> dict:
    keys = ("impression", "tags", "shouldLike", "shouldReply", "shouldFollow")
    return {"n": n, **{k: UNIVERSAL[k] for k in keys}, **overrides}


def test_a_cycle_writes_a_version_of_each_memory_it_writes_with_its_run_and_stage(model_server):
    ai, posts = make_site(cosines=(100, 100))
    push_answers(model_server, shouldReply=False)
    run = run_stages(ai, "interest_update")

    versions = MemoryVersion.objects.filter(user=ai)
    assert {(v.kind, v.source, v.run_id, v.stage) for v in versions} == {
        ("post", "cycle", run.pk, "post_impressions"),
        ("peer", "cycle", run.pk, "peer_impressions"),
        ("interest", "cycle", run.pk, "interest_update"),
    }
    assert sorted(v.post_id for v in versions.filter(kind="post")) == sorted(p.id for p in posts)
    interest = Interest.objects.get(user=ai)
    newest = versions.filter(kind="interest").get()
    assert (newest.text, newest.tags, bytes(newest.features)) == (interest.interest, interest.tags, bytes(interest.features))
    for row in PeerImpression.objects.filter(user=ai):
        assert versions.get(kind="peer", peer_id=row.peer_id).text == row.payload


def test_a_blank_impression_fails_its_item_only(model_server):
    ai, _ = make_site(cosines=(100, 100))
    model_server.push_chat(impressions_answer(item(1, impression="  "), item(2)))
    push_answers(model_server, shouldReply=False)
    run = run_stages(ai, "post_impressions")

    assert PostImpression.objects.filter(user=ai).count() == 1
    assert run.stages["post_impressions"]["failed"] == 1
    errors = [d.get("error", "") for d in run.details["postDecisions"].values()]
    assert sum("blank" in e for e in errors) == 1


def test_a_batch_whose_answer_is_unusable_is_retried_one_item_per_call(model_server):
    ai, _ = make_site(cosines=(100, 100))
    model_server.push_chat('{"impressions": [{"n": 1, "impression": "cut off')  # not JSON: the whole batch
    model_server.push_chat(impressions_answer(item(1)))  # the retry of item 1
    model_server.push_chat("sorry, I cannot")  # the retry of item 2: unusable again, it alone fails
    push_answers(model_server, shouldReply=False)
    run = run_stages(ai, "post_impressions")

    record = run.stages["post_impressions"]
    assert (record["splitBatches"], record["splitCalls"], record["read"], record["failed"]) == (1, 2, 1, 1)
    prompts = [c.prompt for c in model_server.chat_requests()[:3]]
    shown = [[f"Post {i} about" in prompt for i in (0, 1)] for prompt in prompts]
    assert shown[0] == [True, True] and sorted(shown[1:]) == [[False, True], [True, False]]
    assert PostImpression.objects.filter(user=ai).count() == 1


@pytest.mark.parametrize(("new", "why"), [("", "empty"), ("Rye.", "shrank from 515 to 4 characters")])
def test_a_blank_or_shrinking_interest_is_refused_recorded_and_shown(model_server, admin, new, why):
    ai, _ = make_site(cosines=(100,))
    give_interest(ai, base_vector(), text=LONG.strip())
    push_answers(model_server, shouldReply=False, interest=new)
    run = run_stages(ai, "interest_update")

    assert Interest.objects.get(user=ai).interest == LONG.strip()
    assert not MemoryVersion.objects.filter(user=ai, kind="interest").exists()
    (refusal,) = run.details["memoryRefusals"]
    assert refusal["memory"] == "interest" and refusal["reason"].startswith(why)
    assert run.stages["interest_update"]["refused"].startswith(why)
    page = login_client(admin).get(f"/agents/runs/{run.pk}")
    assert 'data-testid="memory-refusals"' in page.content.decode()


def test_a_shrinking_impression_of_a_person_is_refused_and_the_old_one_kept(model_server):
    ai, posts = make_site(cosines=(100,))
    author = posts[0].owner
    old = json.dumps({"impression": LONG, "tags": ["rye"], "shouldFollow": True})
    memory.peer_impression_save(ai, peer_id=author.id, payload=old, source=API)
    push_answers(model_server, shouldReply=False, impression="Nice.")
    run = run_stages(ai, "peer_impressions")

    assert PeerImpression.objects.get(user=ai, peer=author).payload == old
    assert run.details["peerDecisions"][id_to_hex(author.id)]["shouldFollow"] is True
    assert run.details["memoryRefusals"][0]["memory"] == "peer"
    assert run.stages["peer_impressions"]["refused"] == 1


def test_an_interest_whose_vector_jumps_is_refused(model_server, settings):
    settings.STGY_AI_INTEREST_MIN_SIMILARITY = 0.6  # the server's vectors are unrelated to the crafted one
    ai, _ = make_site(cosines=(100,))
    push_answers(model_server, shouldReply=False)
    run = run_stages(ai, "interest_update")

    assert bytes(Interest.objects.get(user=ai).features) == base_vector()
    assert "moved too far" in run.details["memoryRefusals"][0]["reason"]


def test_a_held_interest_is_read_but_not_rewritten(model_server):
    ai, _ = make_site(cosines=(100,))
    Interest.objects.filter(user=ai).update(hold_interest=True)
    push_answers(model_server, shouldReply=False)
    run = run_stages(ai, "interest_update")

    row = Interest.objects.get(user=ai)
    assert (row.interest, bytes(row.features)) == ("Fermentation and bread", base_vector())
    assert run.details["memoryRefusals"] == [{"stage": "interest_update", "memory": "interest", "reason": "held"}]
    # Read all the same: the impressions' prompts carried it.
    assert "Fermentation and bread" in model_server.chat_requests()[0].prompt


def test_a_restore_brings_back_text_tags_and_vector_and_the_next_cycle_reads_it(model_server, admin):
    ai, _ = make_site(cosines=(100, 100))
    Interest.objects.filter(user=ai).delete()
    memory.interest_save(
        ai, interest="Lighthouse keeping and storms at sea", tags=["sea", "storms"], features=base_vector(),
        embedding_model="hash-v1", source=API,
    )
    kept = MemoryVersion.objects.get(user=ai, kind="interest")
    push_answers(model_server, shouldReply=False)
    first = run_stages(ai, "interest_update")
    cycle_end(first.pk)
    assert Interest.objects.get(user=ai).interest == UNIVERSAL["interest"]

    path = f"/api/ai-users/{id_to_hex(ai.id)}/interests/versions/{kept.pk}/restore"
    assert login_client(admin).post(path).status_code == 200
    row = Interest.objects.get(user=ai)
    assert (row.interest, row.tags, bytes(row.features), row.embedding_model) == (
        kept.text, kept.tags, bytes(kept.features), kept.embedding_model
    )
    seen = len(model_server.chat_requests())
    run_stages(ai, "interest_update")
    prompts = [r.prompt for r in model_server.chat_requests()[seen:]]
    assert prompts and all("Lighthouse keeping and storms at sea" in p for p in prompts)
