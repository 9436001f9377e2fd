"""Memory versions (docs/data-model.md, "Memory versions"; docs/api.md §6): every write
keeps its value with its source, the version routes list and restore, bad input changes
nothing, retention prunes, and "forget me" deletes the versions about a person."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.utils import timezone

from agents import memory
from agents.memory_versions import ADMIN, API, versions_forget_person
from agents.models import Interest, MemoryVersion, PeerImpression
from agents.relationships import relationship_bump
from agents.tasks import prune_memory_versions
from agents.vectors import features_to_b64
from sns.core.ids import id_to_hex
from tests.conftest import login_client
from tests.factories import make_ai_user, make_post

pytestmark = pytest.mark.django_db

OLD = bytes([5, 6, 7]) + bytes(509)
NEW = bytes([9, 1, 2]) + bytes(509)


@pytest.fixture(autouse=True)
def _fast(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.STGY_AI_PROVIDER = "none"  # building rows; no summary tasks


@pytest.fixture
def history(ai_user, human):
    """Two interests and two impressions of the human, each a version."""
    memory.interest_save(ai_user, interest="Lighthouses", tags=["sea"], features=OLD, embedding_model="hash-v1", source=API)
    memory.interest_save(ai_user, interest="Rye bread", tags=["bread"], features=NEW, embedding_model="hash-v1", source=API)
    memory.peer_impression_save(ai_user, peer_id=human.id, payload='{"impression":"kind"}', source=API)
    memory.peer_impression_save(ai_user, peer_id=human.id, payload='{"impression":"curt"}', source=ADMIN)
    return MemoryVersion.objects.filter(user=ai_user).order_by("id")


def _base(user) -> str:
    return f"/api/ai-users/{id_to_hex(user.id)}"


def test_every_write_keeps_its_value_as_a_version(history, ai_user, human):
    rows = [(v.kind, v.source, v.text, v.tags) for v in history]
    assert rows == [
        ("interest", "api", "Lighthouses", ["sea"]),
        ("interest", "api", "Rye bread", ["bread"]),
        ("peer", "api", '{"impression":"kind"}', []),
        ("peer", "admin", '{"impression":"curt"}', []),
    ]
    assert bytes(history[0].features) == OLD
    assert history[2].peer_id == human.id


def test_the_versions_are_listed_newest_first_to_the_user_itself_and_admins(history, ai_user, admin, human):
    for actor in (ai_user, admin):
        body = login_client(actor).get(f"{_base(ai_user)}/interests/versions").json()
        assert [v["interest"] for v in body] == ["Rye bread", "Lighthouses"]
        assert body[0]["source"] == {"kind": "api", "runId": None}
        assert set(body[0]) == {"versionId", "createdAt", "source", "interest", "tags"}
        peers = login_client(actor).get(f"{_base(ai_user)}/peer-impressions/{id_to_hex(human.id)}/versions").json()
        assert [v["payload"] for v in peers] == ['{"impression":"curt"}', '{"impression":"kind"}']
    assert login_client(human).get(f"{_base(ai_user)}/interests/versions").status_code == 403


def test_an_admin_restores_text_tags_and_vector_together_as_a_new_version(history, ai_user, admin):
    first = history[0]
    response = login_client(admin).post(f"{_base(ai_user)}/interests/versions/{first.pk}/restore")
    assert response.status_code == 200, response.content
    assert response.json()["interest"] == "Lighthouses"
    assert response.json()["features"] == features_to_b64(OLD)
    row = Interest.objects.get(user=ai_user)
    assert (row.interest, row.tags, bytes(row.features)) == ("Lighthouses", ["sea"], OLD)
    newest = MemoryVersion.objects.filter(user=ai_user, kind="interest").latest("id")
    assert (newest.source, newest.restored_from, newest.text) == ("restore", first.pk, "Lighthouses")
    listed = login_client(admin).get(f"{_base(ai_user)}/interests/versions").json()[0]
    assert listed["source"] == {"kind": "restore", "runId": None, "restoredFrom": first.pk}


def test_an_admin_restores_an_impression_of_a_person(history, ai_user, admin, human):
    kind = history[2]
    path = f"{_base(ai_user)}/peer-impressions/{id_to_hex(human.id)}/versions/{kind.pk}/restore"
    response = login_client(admin).post(path)
    assert response.status_code == 200, response.content
    assert response.json()["payload"] == '{"impression":"kind"}'
    assert PeerImpression.objects.get(user=ai_user, peer=human).payload == '{"impression":"kind"}'


def test_bad_restores_are_refused_and_change_nothing(history, ai_user, admin, human):
    other = make_ai_user("Other")
    memory.interest_save(other, interest="Tea", tags=[], features=OLD, embedding_model="hash-v1", source=API)
    foreign = MemoryVersion.objects.get(user=other)
    interest_version, peer_version = history[0], history[2]
    peer = id_to_hex(human.id)
    cases = [
        (ai_user, f"{_base(ai_user)}/interests/versions/{interest_version.pk}/restore", 403, "admin only"),
        (human, f"{_base(ai_user)}/interests/versions/{interest_version.pk}/restore", 403, "admin only"),
        (admin, f"{_base(ai_user)}/interests/versions/999999999/restore", 404, "version not found"),
        (admin, f"{_base(ai_user)}/interests/versions/{foreign.pk}/restore", 404, "version not found"),
        (admin, f"{_base(ai_user)}/interests/versions/{peer_version.pk}/restore", 404, "version not found"),
        (admin, f"{_base(ai_user)}/peer-impressions/{peer}/versions/{interest_version.pk}/restore", 404,
         "version not found"),
        (admin, f"{_base(ai_user)}/peer-impressions/{id_to_hex(admin.id)}/versions/{peer_version.pk}/restore", 404,
         "version not found"),
        (admin, f"{_base(ai_user)}/interests/versions/abc/restore", 400, "invalid versionId"),
        (admin, f"/api/ai-users/{'0' * 15}1/interests/versions/{interest_version.pk}/restore", 404, "not found"),
    ]
    before = list(MemoryVersion.objects.values_list("id", flat=True).order_by("id"))
    for actor, path, status, error in cases:
        response = login_client(actor).post(path)
        assert (response.status_code, response.json()) == (status, {"error": error}), path
    assert list(MemoryVersion.objects.values_list("id", flat=True).order_by("id")) == before
    assert Interest.objects.get(user=ai_user).interest == "Rye bread"
    assert PeerImpression.objects.get(user=ai_user, peer=human).payload == '{"impression":"curt"}'


def test_the_beat_task_prunes_past_retention_and_keeps_the_newest_of_each_memory(ai_user, settings):
    settings.STGY_AI_MEMORY_VERSION_KEEP = 3
    settings.STGY_AI_MEMORY_VERSION_DAYS = 30
    assert django_settings.CELERY_BEAT_SCHEDULE["agents-prune-memory-versions"]["task"] == "agents.prune_memory_versions"
    for i in range(6):
        memory.interest_save(ai_user, interest=f"v{i}", tags=[], features=OLD, embedding_model="hash-v1", source=API)
    ids = list(MemoryVersion.objects.filter(user=ai_user).order_by("id").values_list("id", flat=True))
    # The four oldest are 40 days old, the fifth 40 days old too but within the newest 3.
    MemoryVersion.objects.filter(id__in=ids[:4]).update(created_at=timezone.now() - timedelta(days=40))
    assert prune_memory_versions.apply().get() == 3
    assert list(MemoryVersion.objects.filter(user=ai_user).values_list("text", flat=True).order_by("id")) == [
        "v3", "v4", "v5"
    ]
    # Recent versions stay however many there are.
    MemoryVersion.objects.update(created_at=timezone.now())
    memory.interest_save(ai_user, interest="v6", tags=[], features=OLD, embedding_model="hash-v1", source=API)
    assert prune_memory_versions.apply().get() == 0
    assert MemoryVersion.objects.filter(user=ai_user).count() == 4


def test_forget_me_deletes_every_version_about_a_person(history, ai_user, human):
    post = make_post(human, "My rye loaf")
    memory.post_impression_save(ai_user, post_id=post.id, payload='{"impression":"nice"}', source=API)
    relationship_bump(ai_user.id, human.id, "reply")
    other_ai = make_ai_user("Other")
    memory.peer_impression_save(other_ai, peer_id=human.id, payload='{"impression":"x"}', source=API)
    about = MemoryVersion.objects.filter(peer=human)
    assert set(about.filter(user=ai_user).values_list("kind", flat=True)) == {"peer", "post", "relationship"}

    assert versions_forget_person(human.id, user_id=ai_user.id) == 4
    assert not about.filter(user=ai_user).exists()
    assert about.filter(user=other_ai).count() == 1
    assert MemoryVersion.objects.filter(user=ai_user, kind="interest").count() == 2  # its own interest stays
    assert versions_forget_person(human.id) == 1
    assert not about.exists()


def test_a_relationship_keeps_a_version_when_its_level_moves(ai_user, human, settings):
    settings.STGY_RELATIONSHIP_WEIGHT_REPLY = 0.15
    for _ in range(3):
        relationship_bump(ai_user.id, human.id, "reply")
    levels = list(MemoryVersion.objects.filter(user=ai_user, kind="relationship").order_by("id").values_list("text", flat=True)
    )
    # 0.15 (stranger), 0.2775 (acquaintance), 0.386 (acquaintance): two levels, two versions.
    assert levels == ["stranger", "acquaintance"]


def test_the_memory_page_shows_the_interest_over_time_and_restores(history, ai_user, admin, client):
    client.force_login(admin)
    page = client.get(f"/users/{id_to_hex(ai_user.id)}/memory")
    html = page.content.decode()
    assert page.status_code == 200
    assert 'data-testid="interest-drift"' in html and "<polyline" in html
    assert "<del>Lighthouses</del>" in html and "<ins>Rye bread</ins>" in html
    first = history[0]
    response = client.post(f"/users/{id_to_hex(ai_user.id)}/memory/interest-versions/{first.pk}/restore")
    assert response.status_code == 302
    assert Interest.objects.get(user=ai_user).interest == "Lighthouses"
    response = client.post(f"/users/{id_to_hex(ai_user.id)}/memory/hold", {"hold_interest": "on"})
    assert response.status_code == 302
    row = Interest.objects.get(user=ai_user)
    assert (row.hold_interest, row.hold_impressions) == (True, False)


def test_the_ai_user_itself_cannot_restore_from_the_page(history, ai_user, client):
    client.force_login(ai_user)
    assert client.get(f"/users/{id_to_hex(ai_user.id)}/memory").status_code == 200
    client.post(f"/users/{id_to_hex(ai_user.id)}/memory/interest-versions/{history[0].pk}/restore")
    client.post(f"/users/{id_to_hex(ai_user.id)}/memory/hold", {"hold_interest": "on"})
    row = Interest.objects.get(user=ai_user)
    assert (row.interest, row.hold_interest) == ("Rye bread", False)


def test_django_admin_restores_a_version_and_holds_an_interest(history, ai_user, admin, client):
    client.force_login(admin)
    first = history[0]
    response = client.post(
        "/admin/agents/memoryversion/", {"action": "restore", "_selected_action": [first.pk]}, follow=True
    )
    assert response.status_code == 200
    assert Interest.objects.get(user=ai_user).interest == "Lighthouses"
    response = client.post(
        "/admin/agents/interest/", {"action": "hold_all", "_selected_action": [ai_user.pk]}, follow=True
    )
    assert response.status_code == 200
    row = Interest.objects.get(user=ai_user)
    assert (row.hold_interest, row.hold_impressions) == (True, True)
    assert client.get(f"/admin/agents/memoryversion/{first.pk}/change/").status_code == 200


def test_agent_activity_flags_an_interest_that_moved_far_in_a_day(ai_user, admin, client, settings):
    settings.STGY_AI_INTEREST_DRIFT_FLAG = 0.3
    steady = make_ai_user("Steady")
    a = bytes([100] * 256 + [0] * 256)
    b = bytes([0] * 256 + [100] * 256)  # orthogonal to a: similarity 0 + the model's offset
    for user, vectors in ((ai_user, (a, b)), (steady, (a, a))):
        for features in vectors:
            memory.interest_save(user, interest="x", tags=[], features=features, embedding_model="m", source=API)
    client.force_login(admin)
    html = client.get("/agents/activity").content.decode()
    assert 'data-testid="drift-flags"' in html
    assert f"/users/{id_to_hex(ai_user.id)}/memory" in html
    assert f"/users/{id_to_hex(steady.id)}/memory" not in html.split('data-testid="drift-flags"')[1].split("</section>")[0]


def test_drift_compares_the_newest_version_with_the_last_before_the_day(ai_user, settings, django_assert_max_num_queries):
    from agents.memory_history import interests_drifted

    settings.STGY_AI_INTEREST_DRIFT_FLAG = 0.3
    a = bytes([100] * 256 + [0] * 256)
    b = bytes([0] * 256 + [100] * 256)
    wanderer, settled, returned = make_ai_user("Wanderer"), make_ai_user("Settled"), make_ai_user("Returned")
    # Yesterday's versions: the base each of today's is measured against.
    for user, base in ((wanderer, a), (settled, b), (returned, a)):
        memory.interest_save(user, interest="x", tags=[], features=base, embedding_model="m", source=API)
    MemoryVersion.objects.update(created_at=timezone.now() - timedelta(days=2))
    # Today: the wanderer ends far from its base, the settled one had moved before the
    # day and stays, the returned one goes far and comes back; many versions each.
    for user, path in ((wanderer, [a, a, b]), (settled, [b] * 6), (returned, [b, b, a])):
        for features in path:
            memory.interest_save(user, interest="x", tags=[], features=features, embedding_model="m", source=API)
    with django_assert_max_num_queries(3):
        flagged = interests_drifted()
    assert [user.id for user, _distance in flagged] == [wanderer.id]
    assert flagged[0][1] > 0.3


def test_the_versions_of_an_impression_are_shown_and_restored_from_the_page(history, ai_user, admin, human, client):
    client.force_login(admin)
    base = f"/users/{id_to_hex(ai_user.id)}/memory/peers/{id_to_hex(human.id)}"
    html = client.get(base).content.decode()
    assert html.count('data-testid="peer-version"') == 2 and "curt" in html and "kind" in html
    kind = history[2]
    assert client.post(f"{base}/versions/{kind.pk}/restore").status_code == 302
    assert PeerImpression.objects.get(user=ai_user, peer=human).payload == '{"impression":"kind"}'
    client.force_login(human)  # neither the AI user itself nor an admin
    assert client.get(base).status_code == 403
