"""Stage 1, choosing what to read (docs/agent-cycle.md §3), with the spec's numbers."""

from __future__ import annotations

import pytest

from agents.cycle.run import cycle_begin, run_cycle_sync, stage_execute
from agents.cycle.select_posts import locale_multiplier, merge_by_max
from agents.models import PostImpression
from sns import services
from sns.models import Like, Post, User
from tests.factories import make_ai_user, make_post, make_user

from .helpers import base_vector, give_interest, summarise, unsummarise, vector_with_cosine

pytestmark = pytest.mark.django_db


def run_select(user):
    run = cycle_begin(user.id)
    assert run is not None
    record = stage_execute(run.pk, "select_posts")
    assert record["outcome"] == "ok", record
    run.refresh_from_db()
    return run


def candidates_of(run) -> dict[str, dict]:
    return {c["postId"]: c for c in run.details["candidates"]}


def read_ids(run) -> list[str]:
    return [r["postId"] for r in run.details["reads"]]


@pytest.mark.parametrize(
    ("mine", "theirs", "expected"),
    [
        ("en-US", "en-GB", 1.0),
        ("ja-JP", "ja", 1.0),
        (" FR_ca ", "fr-FR", 1.0),  # "_" → "-", trimmed, lower-cased language part
        ("fr-FR", "en-GB", 0.5),
        ("fr-FR", "EN", 0.5),
        ("fr-FR", "de-DE", 0.3),
        ("ja-JP", None, 0.3),
        ("", "", 0.3),  # an empty language never counts as "the same"
        ("", "en", 0.5),
    ],
)
def test_locale_multiplier(mine, theirs, expected):
    assert locale_multiplier(mine, theirs) == expected


def test_merge_keeps_the_maximum_weight_never_the_sum():
    merged = merge_by_max(
        [
            (1, 0.5, "latest"),
            (1, 1.0, "followee"),
            (2, 0.15, "latest"),
            (2, 0.8, "reply-notification"),
            (1, 0.5, "follower"),
        ]
    )
    assert merged[1] == {"weight": 1.0, "sources": ["latest", "followee", "follower"]}
    assert merged[2] == {"weight": 0.8, "sources": ["latest", "reply-notification"]}


def test_source_weights_and_multipliers():
    """Every source's base weight, the reply and locale multipliers of the timeline
    sources only, and the merge by maximum, read off the run record."""
    ai = make_ai_user("Aiko", locale="en-US")
    alice = make_user("Alice", locale="en-US")  # followed by the AI user
    carol = make_user("Carol", locale="en-US")
    jun = make_user("Jun", locale="ja-JP")
    dave = make_user("Dave", locale="ja-JP")
    eve = make_user("Eve", locale="ja-JP")
    frank = make_user("Frank", locale="ja-JP")  # follows the AI user
    services.follow_add(ai, alice.id)
    services.follow_add(frank, ai.id)

    mine = make_post(ai, "My own root post about rye bread")
    c1 = make_post(carol, "Carol's root post")
    a1 = make_post(alice, "Alice's root post")
    a2 = make_post(alice, "Alice replies to Carol", reply_to=c1.id)
    a3 = make_post(alice, "Alice replies to the AI user", reply_to=mine.id)
    j1 = make_post(jun, "Jun's post in Japanese locale")
    j2 = make_post(jun, "Jun writes this one in English", locale="en")
    c2 = make_post(carol, "Carol writes this one in German", locale="de")
    d1 = make_post(dave, "Dave replies to the AI user", reply_to=mine.id)
    services.follow_add(ai, eve.id)  # mentions reach followers of the author only
    e1 = make_post(eve, f"Hello [@Aiko](/users/{ai.hex_id})", reply_to=c1.id)
    services.follow_remove(ai, eve.id)
    f1 = make_post(frank, "Frank's recent post")

    cands = candidates_of(run_select(ai))
    weights = {pid: c["weight"] for pid, c in cands.items()}
    sources = {pid: sorted(c["sources"]) for pid, c in cands.items()}

    expected = {
        a1.hex_id: 1.0,  # followee 1.0 beats latest 0.5 (max, not 1.5)
        a2.hex_id: 0.5,  # a reply into someone else's thread: followee 1.0 × 0.5
        a3.hex_id: 1.0,  # a reply to the AI user's own post: × 1; beats notification 0.8
        c1.hex_id: 0.5,  # latest 0.5, same language
        j1.hex_id: 0.15,  # latest 0.5 × other language 0.3
        j2.hex_id: 0.5,  # the post's own locale "en" wins over its owner's ja-JP: 0.5 × 1
        c2.hex_id: 0.15,  # the post's own locale "de" wins over its owner's en-US: 0.5 × 0.3
        d1.hex_id: 0.8,  # reply notification 0.8, no locale multiplier (latest gives 0.15)
        e1.hex_id: 0.6,  # mention 0.6, no reply or locale multiplier (latest: 0.5 × 0.5 × 0.3)
        f1.hex_id: 0.5,  # follower 0.5, no locale multiplier (latest gives 0.15)
    }
    assert weights == pytest.approx(expected)
    assert mine.hex_id not in weights  # own posts are not candidates
    assert sources[a1.hex_id] == ["followee", "latest"]
    assert sources[d1.hex_id] == ["latest", "reply-notification"]
    assert sources[e1.hex_id] == ["latest", "mention-notification"]
    assert sources[f1.hex_id] == ["follower", "latest"]


def test_english_posts_weigh_half_for_a_reader_of_another_language():
    reader = make_ai_user("Amelie", locale="fr-FR")
    carol = make_user("Carol", locale="en-US")
    marie = make_user("Marie", locale="fr-CA")
    kenji = make_user("Kenji", locale="ja-JP")
    services.follow_add(reader, carol.id)
    en_followee = make_post(carol, "followed, English")
    fr_latest = make_post(marie, "not followed, French")
    ja_latest = make_post(kenji, "not followed, Japanese")
    weights = {pid: c["weight"] for pid, c in candidates_of(run_select(reader)).items()}
    assert weights == pytest.approx(
        {en_followee.hex_id: 0.5, fr_latest.hex_id: 0.5, ja_latest.hex_id: 0.15}
    )


def test_a_reply_whose_parent_was_deleted_weighs_as_a_root_post(ai_user):
    carol, dave = make_user("Carol"), make_user("Dave")
    parent = make_post(dave, "soon deleted")
    orphan = make_post(carol, "Carol answered Dave", reply_to=parent.id)
    reply = make_post(carol, "Carol answers herself", reply_to=orphan.id)
    services.post_delete(dave, parent.id)
    weights = {pid: c["weight"] for pid, c in candidates_of(run_select(ai_user)).items()}
    assert weights == pytest.approx({orphan.hex_id: 0.5, reply.hex_id: 0.25})


def test_the_site_visibility_rule_decides_what_the_ai_user_reads(ai_user):
    """Stage 1 reads through sns/selectors/visibility.py: frozen owners, owners who
    block the AI user (explicitly, or by blockStrangers without a follow back) and
    owners the AI user blocked are all hidden; a follow back lets blockStrangers pass."""
    frozen = make_user("Frozen")
    blocker = make_user("Blocker")
    shy = make_user("Shy", block_strangers=True)
    friendly_shy = make_user("FriendlyShy", block_strangers=True)
    blocked = make_user("Blocked")
    plain = make_user("Plain")
    p_frozen = make_post(frozen, "from a user frozen later")
    p_blocker = make_post(blocker, "from a user who blocks the AI user")
    p_shy = make_post(shy, "from a user who blocks strangers")
    p_friendly = make_post(friendly_shy, "from a user who blocks strangers but follows the AI user")
    p_blocked = make_post(blocked, "from a user the AI user blocked")
    p_plain = make_post(plain, "from a plain user")
    User.objects.filter(pk=frozen.pk).update(is_frozen=True)
    services.block_add(blocker, ai_user.id)
    services.follow_add(friendly_shy, ai_user.id)
    services.block_add(ai_user, blocked.id)

    run = run_select(ai_user)
    seen = set(candidates_of(run))
    assert {p_plain.hex_id, p_friendly.hex_id} <= seen
    assert not {p_frozen.hex_id, p_blocker.hex_id, p_shy.hex_id, p_blocked.hex_id} & seen
    assert set(read_ids(run)) == {p_plain.hex_id, p_friendly.hex_id}


def test_an_ai_users_mutes_and_muted_words_hide_from_its_reading(ai_user):
    """Mutes go through the same rule (docs/mutes.md): an AI user's mute (set by an
    admin) and muted words keep posts out of what it reads."""
    from sns.services import mutes

    muted = make_user("Muted")
    plain = make_user("Plain")
    p_muted = make_post(muted, "from a muted user")
    p_word = make_post(plain, "about the Election results")
    p_plain = make_post(plain, "about gardening")
    mutes.mute_add(ai_user, muted.id)
    mutes.muted_words_set(ai_user, ai_user.id, ["election"])
    seen = set(candidates_of(run_select(ai_user)))
    assert p_plain.hex_id in seen
    assert not {p_muted.hex_id, p_word.hex_id} & seen


def test_already_read_posts_are_excluded(ai_user, human):
    old = make_post(human, "read in an earlier cycle")
    new = make_post(human, "not read yet")
    PostImpression.objects.create(
        user=ai_user, peer=human, post=old, payload="{}", updated_at=old.created_at
    )

    run = run_select(ai_user)
    cands = candidates_of(run)
    assert cands[old.hex_id]["alreadyRead"] is True
    assert cands[new.hex_id]["alreadyRead"] is False
    assert read_ids(run) == [new.hex_id]


def test_per_author_cap_of_two(ai_user):
    authors = [make_user(f"Author{i}") for i in range(3)]
    for author in authors:
        for n in range(4):
            make_post(author, f"post {n} of {author.nickname}")
    run = run_select(ai_user)
    owners = [r["ownerId"] for r in run.details["reads"]]
    assert len(owners) == 6
    assert all(owners.count(a.hex_id) == 2 for a in authors)


def test_read_limit(ai_user, settings):
    settings.STGY_AI_USER_READ_POST_LIMIT = 5
    for i in range(4):
        author = make_user(f"Writer{i}")
        for n in range(3):
            make_post(author, f"post {n} by writer {i}")
    run = run_select(ai_user)
    owners = [r["ownerId"] for r in run.details["reads"]]
    assert len(owners) == 5
    assert max(owners.count(o) for o in owners) <= 2
    assert len(run.details["candidates"]) == 12


def test_first_run_reads_only_summarised_posts_and_neither_likes_nor_replies(
    ai_user, human, follower
):
    authors = [human, follower, make_user("Carol")]
    done = [
        make_post(a, f"Sourdough bread and fermentation, note {i}") for i, a in enumerate(authors)
    ]
    pending = make_post(make_user("Dave"), "A post whose summary is still pending")
    unsummarise(pending)

    run = run_cycle_sync(ai_user.id)
    assert run.details["interestAtStart"] is None
    assert pending.hex_id in candidates_of(run)  # a candidate, but not readable yet
    assert set(read_ids(run)) == {p.hex_id for p in done}
    assert all(r["sim"] == 0 for r in run.details["reads"])
    assert run.stages["likes_and_replies"]["outcome"] == "skipped"
    assert not Like.objects.filter(user=ai_user).exists()
    assert not Post.objects.filter(owner=ai_user, reply_to__isnull=False).exists()
    # The first interest is formed in the same cycle from what was read.
    assert run.stages["interest_update"]["outcome"] == "ok"
    assert ai_user.ai_interest.interest


# cosine → sigmoidalContrast((cos+1)/2, gain 5, mid 0.75): docs/summaries-and-vectors.md §2.5
REFERENCE = {
    -100: 0.0,
    -50: 0.070104,
    0: 0.264771,
    20: 0.394850,
    40: 0.549959,
    50: 0.632386,
    60: 0.714812,
    70: 0.794729,
    80: 0.869921,
    90: 0.938698,
    100: 1.0,
}


def test_ranking_uses_the_sigmoidal_contrast_of_the_reference_table(settings, ai_user):
    """boosted = (score + 0.2) × S(cos); the reads are ordered by it. Vectors are made
    so their decoded cosines are exactly the table's, and of an embedding model that
    declares no calibration, so the raw cosine is what the stage uses."""
    posts = {}
    for hundredths in REFERENCE:
        author = make_user(f"Cos{hundredths}")
        posts[hundredths] = make_post(author, f"post with cosine {hundredths / 100}")
    settings.STGY_EMBEDDING_PROVIDER = "openai"  # only the model name is used: nothing is embedded
    for hundredths, post in posts.items():
        summarise(post, vector_with_cosine(hundredths))
    give_interest(ai_user, base_vector())

    run = run_select(ai_user)
    cands = candidates_of(run)
    for hundredths, post in posts.items():
        c = cands[post.hex_id]
        assert c["sim"] == pytest.approx(hundredths / 100, abs=1e-9)
        assert c["boosted"] / (c["score"] + 0.2) == pytest.approx(REFERENCE[hundredths], abs=2e-5)
    reads = read_ids(run)
    assert len(reads) == 10  # read limit
    boosted = [cands[pid]["boosted"] for pid in reads]
    assert boosted == sorted(boosted, reverse=True)
    left_out = {p.hex_id for p in posts.values()} - set(reads)
    assert len(left_out) == 1 and cands[left_out.pop()]["boosted"] <= min(boosted)


def test_posts_without_a_vector_are_not_read_when_an_interest_exists(settings, ai_user, human):
    with_vector = make_post(human, "has a vector")
    summary_only = make_post(human, "summary text but no vector")
    settings.STGY_EMBEDDING_PROVIDER = "openai"
    summarise(with_vector, vector_with_cosine(50))
    summarise(summary_only, b"")
    give_interest(ai_user, base_vector())
    run = run_select(ai_user)
    assert read_ids(run) == [with_vector.hex_id]
