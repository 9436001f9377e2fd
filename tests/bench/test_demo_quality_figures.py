"""bench/demo_quality's figures read from a database (no demo run): AI-to-AI replies
beyond the depth, the AI share of Everyone page 1 replayed by the minute, and the most
frequent opening frame."""

from __future__ import annotations

import sqlite3

from bench.demo_quality import ai_replies_beyond_depth, everyone_share, opening_frames

T0 = 1_800_000_000_000  # ms


def _db(tmp_path, posts):
    """posts: (id time offset in s, owner id, reply_to index or None); users 1-2 AI, 3-4 people."""
    path = tmp_path / "stgy.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE sns_user (id integer primary key, ai_model text, email text)")
        conn.execute(
            "CREATE TABLE sns_post (id integer primary key, owned_by integer, reply_to integer, content text)"
        )
        conn.executemany(
            "INSERT INTO sns_user VALUES (?, ?, ?)",
            [(1, "m", ""), (2, "m", ""), (3, None, "p"), (4, None, "q")],
        )
        ids = []
        for seconds, owner, parent in posts:
            ids.append(((T0 + seconds * 1000) << 20) + len(ids))
            conn.execute(
                "INSERT INTO sns_post VALUES (?, ?, ?, ?)",
                (ids[-1], owner, ids[parent] if parent is not None else None, "x"),
            )
    return path, ids


def test_ai_to_ai_replies_beyond_the_depth(tmp_path):
    # An AI root post, three AI answers in a row (the third beyond one answer each), and
    # a line a person opened again.
    path, ids = _db(
        tmp_path, [(0, 1, None), (1, 2, 0), (2, 1, 1), (3, 2, 2), (4, 3, 3), (5, 1, 4), (6, 2, 5)]
    )
    assert ai_replies_beyond_depth(path, ids[0], 2) == {
        "ai_to_ai_replies": 4,
        "ai_to_ai_replies_beyond_depth": 1,
    }


def test_everyone_page_one_is_replayed_by_the_minute(tmp_path):
    path, _ = _db(tmp_path, [(0, 1, None), (10, 3, None), (70, 1, None), (80, 2, None)])
    figures = everyone_share(path, person_id=4, started_ms=T0, ended_ms=T0 + 120_000, page=2)
    # Minute 1: the person's post and an AI post, 1 of 2. Minute 2: the two newest are AI
    # posts, but the page's merge (STGY_TIMELINE_AI_SHARE 0.5) keeps the person's post of
    # a minute before on it: 1 of 2, where the plain newest two would be 2 of 2.
    assert figures["everyone_page1_ai_share_mean"] == 0.5
    assert figures["everyone_page1_ai_share_max"] == 0.5
    assert figures["everyone_minutes_while_people_posted"] == 2


def test_the_most_frequent_opening_frame():
    texts = [
        "# A second look at rye",
        "# A second look at spelt",
        "Lately I keep coming back to rye.",
    ]
    assert opening_frames(texts) == {
        "top_opening_frame": "second look at",
        "top_opening_frame_share": 0.667,
    }
