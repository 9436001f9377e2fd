"""The offline stand-in's tags: the NDC class of a text (a fixed table of cue words)
plus its keywords, as the prompts ask for (docs/offline-standin.md)."""

from __future__ import annotations

import re
from collections import Counter
from typing import Iterable

from agents.llm.offline_text import stem

# (code, English label, Japanese label, cue words). More specific classes come first so
# that they win ties; English cues are stemmed like text words, Japanese cues are
# matched as substrings.
NDC_TABLE: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    (
        "007.63",
        "Software",
        "ソフトウェア",
        (
            "software",
            "programming",
            "python",
            "javascript",
            "rust",
            "database",
            "sql",
            "postgresql",
            "django",
            "compiler",
            "code",
            "bug",
            "api",
            "redis",
            "cache",
            "server",
            "linux",
            "query",
            "index",
            "プログラミング",
            "ソフトウェア",
            "データベース",
            "コード",
        ),
    ),
    (
        "007",
        "Information science",
        "情報科学",
        (
            "computer",
            "algorithm",
            "data",
            "internet",
            "ai",
            "machine",
            "network",
            "information",
            "robot",
            "コンピュータ",
            "アルゴリズム",
            "データ",
            "人工知能",
            "情報",
        ),
    ),
    (
        "626",
        "Vegetable gardening",
        "蔬菜園芸",
        (
            "vegetable",
            "tomato",
            "compost",
            "soil",
            "seedling",
            "mulch",
            "野菜",
            "トマト",
            "堆肥",
            "菜園",
            "苗",
        ),
    ),
    (
        "620",
        "Horticulture",
        "園芸",
        (
            "garden",
            "gardening",
            "flower",
            "pruning",
            "bonsai",
            "園芸",
            "庭いじり",
            "ガーデニング",
            "盆栽",
            "花壇",
        ),
    ),
    (
        "596",
        "Cooking",
        "料理",
        (
            "cooking",
            "recipe",
            "bread",
            "sourdough",
            "baking",
            "kitchen",
            "soup",
            "coffee",
            "tea",
            "料理",
            "レシピ",
            "パン",
            "発酵",
            "台所",
            "コーヒー",
            "紅茶",
        ),
    ),
    (
        "451",
        "Meteorology",
        "気象学",
        ("weather", "climate", "rain", "storm", "typhoon", "天気", "気候", "台風", "気象"),
    ),
    (
        "440",
        "Astronomy",
        "天文学",
        (
            "astronomy",
            "star",
            "planet",
            "telescope",
            "galaxy",
            "space",
            "moon",
            "天文",
            "宇宙",
            "惑星",
            "望遠鏡",
            "銀河",
        ),
    ),
    (
        "460",
        "Biological sciences",
        "生物科学",
        ("biology", "cell", "evolution", "gene", "ecology", "生物", "進化", "遺伝", "生態"),
    ),
    ("488", "Birds", "鳥類", ("bird", "birdwatching", "owl", "crow", "野鳥", "カラス")),
    ("480", "Zoology", "動物学", ("animal", "cat", "dog", "insect", "動物", "猫", "犬", "昆虫")),
    (
        "410",
        "Mathematics",
        "数学",
        (
            "math",
            "mathematics",
            "theorem",
            "proof",
            "equation",
            "geometry",
            "数学",
            "定理",
            "証明",
            "方程式",
        ),
    ),
    (
        "420",
        "Physics",
        "物理学",
        ("physics", "quantum", "energy", "particle", "物理", "量子", "素粒子"),
    ),
    (
        "490",
        "Medicine",
        "医学",
        ("health", "medicine", "sleep", "doctor", "disease", "健康", "医療", "睡眠", "病気"),
    ),
    (
        "519",
        "Environmental engineering",
        "環境工学",
        ("environment", "pollution", "recycling", "sustainability", "環境", "汚染", "リサイクル"),
    ),
    (
        "540",
        "Electrical engineering",
        "電気工学",
        ("electronics", "circuit", "battery", "solar", "電子", "回路", "電池", "太陽光"),
    ),
    (
        "330",
        "Economics",
        "経済",
        (
            "economy",
            "economics",
            "market",
            "money",
            "price",
            "inflation",
            "investment",
            "経済",
            "市場",
            "物価",
            "投資",
        ),
    ),
    (
        "370",
        "Education",
        "教育",
        ("education", "school", "teacher", "student", "learning", "教育", "学校", "先生", "学習"),
    ),
    ("360", "Society", "社会", ("society", "community", "social", "社会", "地域", "コミュニティ")),
    (
        "140",
        "Psychology",
        "心理学",
        ("psychology", "emotion", "mind", "habit", "motivation", "心理", "感情", "習慣"),
    ),
    (
        "100",
        "Philosophy",
        "哲学",
        ("philosophy", "ethics", "meaning", "truth", "existence", "哲学", "倫理", "存在"),
    ),
    (
        "290",
        "Geography",
        "地理",
        ("travel", "trip", "city", "map", "journey", "旅行", "地図", "旅", "観光"),
    ),
    ("200", "History", "歴史", ("history", "ancient", "historical", "歴史", "古代", "江戸")),
    ("740", "Photography", "写真", ("photo", "photography", "camera", "lens", "写真", "カメラ")),
    ("720", "Painting", "絵画", ("painting", "drawing", "sketch", "watercolor", "絵画", "水彩")),
    (
        "760",
        "Music",
        "音楽",
        (
            "music",
            "song",
            "guitar",
            "piano",
            "jazz",
            "concert",
            "音楽",
            "ギター",
            "ピアノ",
            "ジャズ",
        ),
    ),
    ("778", "Film", "映画", ("film", "movie", "cinema", "映画")),
    (
        "798",
        "Indoor games",
        "室内娯楽",
        ("game", "games", "chess", "puzzle", "ゲーム", "将棋", "囲碁"),
    ),
    (
        "780",
        "Sports",
        "スポーツ",
        (
            "sport",
            "sports",
            "running",
            "marathon",
            "football",
            "soccer",
            "baseball",
            "スポーツ",
            "マラソン",
            "サッカー",
            "野球",
        ),
    ),
    (
        "900",
        "Literature",
        "文学",
        (
            "novel",
            "poem",
            "poetry",
            "book",
            "books",
            "story",
            "fiction",
            "小説",
            "詩",
            "物語",
            "文学",
        ),
    ),
    (
        "800",
        "Language",
        "言語",
        ("language", "grammar", "word", "translation", "言語", "文法", "翻訳"),
    ),
)
GENERAL_NDC = ("000", "General works", "総記")
# The labels in any case and their words ("General works" → "general", "works"): AI tags
# without their code, read back, are classes, not topics.
NDC_LABELS = frozenset(
    w for _, en, ja, _ in (*NDC_TABLE, (*GENERAL_NDC, ())) for label in (en.lower(), ja)
    for w in (label, *label.split())
)


def ndc_tag(text: str, lang: str) -> str:
    """`<code>:<label>` of the table entry with the most cue hits in `text`."""
    words = Counter(stem(m.group(0)) for m in re.finditer(r"[A-Za-z][A-Za-z0-9+#-]*", text))
    best, best_hits = GENERAL_NDC, 0
    for code, en_label, ja_label, cues in NDC_TABLE:
        hits = 0
        for cue in cues:
            hits += words[stem(cue)] if cue.isascii() else text.count(cue)
        if hits > best_hits:
            best, best_hits = (code, en_label, ja_label), hits
    code, en_label, ja_label = best
    return f"{code}:{ja_label if lang == 'ja' else en_label}"


def make_tags(ndc: str, keywords: Iterable[str], tag_num: int, tag_chars: int) -> list[str]:
    """The NDC tag plus keywords: 2..tag_num tags (at most 5), none longer than tag_chars."""
    wanted = max(2, min(int(tag_num or 5), 5))
    tags = [ndc]
    seen = {ndc.split(":", 1)[1].lower()}
    for word in keywords:
        if len(tags) >= wanted:
            break
        if 0 < len(word) <= tag_chars and word.lower() not in seen:
            tags.append(word)
            seen.add(word.lower())
    if len(tags) < 2:
        tags.append("memo" if ndc.isascii() else "メモ")
    return tags
