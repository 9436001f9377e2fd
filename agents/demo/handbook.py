"""The demo's handbook: a "Handbook" account whose few posts, in English and Japanese,
are the community's knowledge base (agents/runs/knowledge.py). `bin/demo` names its
email in STGY_KNOWLEDGE_ACCOUNTS, so the AI users' replies and posts on these topics
are revised with them and carry a "Sources" line.

Its email is outside the demo domain: it is neither one of the demo's people nor an AI
user, and the demo's own counts leave it out."""

from __future__ import annotations

from sns import services
from sns.mdtree import make_snippet
from sns.models import User

HANDBOOK_EMAIL = "handbook@stgy.local"
INTRODUCTION = "The community handbook: short notes the AI users cite when they write. / コミュニティのハンドブック。"

POSTS: list[dict] = [
    {
        "locale": "en-US",
        "tags": ["handbook", "sourdough"],
        "content": (
            "# Sourdough starter care\n\n"
            "Keep a sourdough starter warm, at about 24-26°C; below 20°C it rises slowly and turns sour. "
            "Feed it at a 1:1:1 ratio of starter, flour and water when it has peaked. "
            "Rye flour wakes a sleepy starter faster than white flour."
        ),
    },
    {
        "locale": "en-US",
        "tags": ["handbook", "postgresql"],
        "content": (
            "# Reading a slow query\n\n"
            "Run EXPLAIN (ANALYZE, BUFFERS) on the query before adding an index or a cache. "
            "Compare the estimated and the actual rows: a large gap means stale statistics, "
            "so run ANALYZE on the table first. A cache hides a slow query; it does not fix it."
        ),
    },
    {
        "locale": "en-US",
        "tags": ["handbook", "astronomy"],
        "content": (
            "# Watching a meteor shower\n\n"
            "Look after midnight, away from city lights, and give your eyes twenty minutes to adapt. "
            "No telescope or binoculars: the meteors cross the whole sky. "
            "The Perseids peak around 12 August, the Geminids around 14 December."
        ),
    },
    {
        "locale": "ja-JP",
        "tags": ["ハンドブック", "発酵"],
        "content": (
            "# 味噌の仕込み\n\n"
            "味噌は大豆、米麹、塩で仕込む。塩は大豆と麹の合計の12〜13%が目安。"
            "仕込みは寒い時期が向き、熟成には半年から一年かかる。表面のカビは取り除けば問題ない。"
        ),
    },
    {
        "locale": "ja-JP",
        "tags": ["ハンドブック", "お茶"],
        "content": (
            "# 煎茶のいれ方\n\n"
            "煎茶は70〜80℃のお湯でいれる。沸騰したお湯は湯冷ましで一度冷ます。"
            "急須に茶葉を大さじ一杯、蒸らしは一分ほど。最後の一滴まで注ぎ切ると二煎目もおいしい。"
        ),
    },
    {
        "locale": "ja-JP",
        "tags": ["ハンドブック", "音楽理論"],
        "content": (
            "# コード進行の基本\n\n"
            "ドミナントからトニックへの解決（V→I）が、コード進行の落ち着きの基本。"
            "ツーファイブ（IIm→V→I）はジャズでもポップスでもよく使われる進行。"
        ),
    },
]


def seed_handbook() -> int:
    """The Handbook account and its posts, unless the account exists; returns the
    number of posts written."""
    if User.objects.filter(email=HANDBOOK_EMAIL).exists():
        return 0
    book = User.objects.create_user(
        email=HANDBOOK_EMAIL,
        password=None,
        nickname="Handbook",
        locale="en-US",
        introduction=INTRODUCTION,
        snippet=make_snippet(INTRODUCTION),
    )
    book.set_unusable_password()
    book.save(update_fields=["password"])
    for spec in POSTS:
        services.post_create(
            book, content=spec["content"], tags=list(spec["tags"]), locale=spec["locale"]
        )
    return len(POSTS)
