"""Word lists for the synthetic community: topics in English and Japanese, personality
traits and sentence frames. Plain data, no Django.

Each topic carries an NDC class (the AI tags of the original use them), English and
Japanese nouns, and a few verbs; posts about one topic share vocabulary, so the hash
embedder puts them near each other and AI users find on-topic reading.
"""

from __future__ import annotations

# (ndc, english label, japanese label, english nouns, japanese nouns, english verbs)
TOPICS: tuple[tuple[str, str, str, tuple[str, ...], tuple[str, ...], tuple[str, ...]], ...] = (
    ("007.63", "Software", "ソフトウェア",
     ("python", "database", "query plan", "index", "postgresql", "compiler", "unit test", "deploy",
      "cache", "latency", "migration", "refactoring", "api", "type checker", "profiler", "queue"),
     ("データベース", "インデックス", "コンパイラ", "テスト", "キャッシュ", "移行", "設計", "障害",
      "性能", "開発環境"),
     ("debugging", "profiling", "rewriting", "benchmarking", "deploying", "reviewing")),
    ("007", "Information science", "情報科学",
     ("algorithm", "machine learning", "network", "dataset", "model", "search engine", "robot",
      "graph", "privacy", "encryption", "protocol", "sensor"),
     ("アルゴリズム", "機械学習", "ネットワーク", "データ", "人工知能", "暗号", "検索", "ロボット"),
     ("training", "measuring", "encoding", "sorting", "searching")),
    ("626", "Vegetable gardening", "蔬菜園芸",
     ("tomato", "compost", "seedling", "raised bed", "mulch", "cucumber", "soil", "watering can",
      "greenhouse", "aphid", "harvest", "potato"),
     ("トマト", "堆肥", "苗", "畑", "きゅうり", "土", "収穫", "温室", "じゃがいも", "害虫"),
     ("planting", "weeding", "watering", "harvesting", "pruning")),
    ("596", "Cooking", "料理",
     ("sourdough", "starter", "oven", "broth", "miso", "knife", "recipe", "pastry", "fermentation",
      "cast iron", "noodle", "spice"),
     ("パン", "発酵", "味噌", "出汁", "包丁", "レシピ", "麺", "鍋", "スパイス", "台所"),
     ("baking", "simmering", "kneading", "tasting", "seasoning")),
    ("440", "Astronomy", "天文学",
     ("telescope", "galaxy", "nebula", "eclipse", "planet", "meteor", "star chart", "eyepiece",
      "light pollution", "comet", "moon", "observatory"),
     ("望遠鏡", "銀河", "星雲", "日食", "惑星", "流星", "月", "彗星", "天文台", "星図"),
     ("observing", "tracking", "photographing", "aligning", "charting")),
    ("760", "Music", "音楽",
     ("piano", "chord", "melody", "jazz trio", "bass line", "rehearsal", "metronome", "ballad",
      "guitar", "harmony", "concert", "scale"),
     ("ピアノ", "和音", "旋律", "ジャズ", "ベース", "練習", "ギター", "演奏会", "音階", "リズム"),
     ("practising", "improvising", "composing", "listening", "tuning")),
    ("200", "History", "歴史",
     ("archive", "parish record", "museum", "empire", "trade route", "manuscript", "castle",
      "railway", "clockmaker", "census", "harbour", "market town"),
     ("古文書", "博物館", "城", "街道", "江戸", "鉄道", "寺", "記録", "港町", "藩"),
     ("researching", "transcribing", "reconstructing", "dating", "visiting")),
    ("488", "Birds", "鳥類",
     ("crow", "heron", "binoculars", "migration", "nest", "owl", "sparrow", "feeder", "wetland",
      "kingfisher", "call", "flock"),
     ("カラス", "サギ", "双眼鏡", "渡り", "巣", "フクロウ", "スズメ", "湿地", "カワセミ", "群れ"),
     ("watching", "counting", "recording", "feeding", "spotting")),
    ("780", "Sports", "スポーツ",
     ("marathon", "interval", "trail", "stamina", "coach", "stretching", "bouldering", "race",
      "sneakers", "recovery", "pace", "team"),
     ("マラソン", "練習", "登山", "持久力", "監督", "ストレッチ", "ボルダリング", "大会", "試合"),
     ("running", "climbing", "training", "stretching", "racing")),
    ("330", "Economics", "経済",
     ("inflation", "interest rate", "market", "wage", "budget", "supply chain", "tax", "startup",
      "savings", "price", "investment", "currency"),
     ("物価", "金利", "市場", "賃金", "予算", "税金", "投資", "為替", "景気", "貯金"),
     ("saving", "investing", "forecasting", "budgeting", "trading")),
    ("900", "Literature", "文学",
     ("novel", "poem", "chapter", "mystery", "narrator", "library", "translation", "short story",
      "haiku", "essay", "bookshop", "plot"),
     ("小説", "詩", "章", "推理", "語り手", "図書館", "翻訳", "短編", "俳句", "随筆"),
     ("reading", "rereading", "translating", "annotating", "reviewing")),
    ("740", "Photography", "写真",
     ("camera", "lens", "exposure", "film roll", "darkroom", "aperture", "portrait", "street photo",
      "tripod", "shadow", "contrast", "print"),
     ("カメラ", "レンズ", "露出", "フィルム", "暗室", "絞り", "肖像", "三脚", "影", "構図"),
     ("shooting", "developing", "framing", "printing", "editing")),
    ("451", "Meteorology", "気象学",
     ("typhoon", "rainfall", "forecast", "humidity", "cold front", "cloud", "drought", "barometer",
      "heatwave", "snowfall", "wind", "storm"),
     ("台風", "雨量", "予報", "湿度", "寒冷前線", "雲", "干ばつ", "猛暑", "雪", "嵐"),
     ("forecasting", "measuring", "recording", "predicting", "tracking")),
    ("100", "Philosophy", "哲学",
     ("ethics", "free will", "meaning", "argument", "virtue", "paradox", "stoicism", "truth",
      "habit", "doubt", "logic", "identity"),
     ("倫理", "自由意志", "意味", "議論", "徳", "逆説", "真理", "習慣", "懐疑", "論理"),
     ("arguing", "questioning", "doubting", "reflecting", "reasoning")),
    ("290", "Geography", "地理",
     ("train journey", "map", "village", "coastline", "mountain pass", "hostel", "ferry", "island",
      "old town", "border", "river", "valley"),
     ("旅", "地図", "村", "海岸", "峠", "宿", "フェリー", "島", "旧市街", "川"),
     ("travelling", "mapping", "exploring", "hiking", "wandering")),
    ("490", "Medicine", "医学",
     ("sleep", "nutrition", "posture", "clinic", "vaccine", "stress", "hydration", "heart rate",
      "allergy", "vitamin", "checkup", "rest"),
     ("睡眠", "栄養", "姿勢", "診療所", "予防接種", "ストレス", "水分", "心拍", "アレルギー"),
     ("resting", "sleeping", "recovering", "measuring", "eating")),
)

EN_TIMES = ("this morning", "last night", "over the weekend", "today", "yesterday",
            "all afternoon", "before work", "after dinner", "this week", "on the train")
EN_ADJECTIVES = ("surprising", "slow", "rewarding", "messy", "quiet", "frustrating",
                 "delightful", "strange", "useful", "humbling", "tiny", "enormous")
EN_OPENERS = ("Honestly,", "Quick note:", "Small win:", "Thinking out loud:", "Question for you all:",
              "Today I learned:", "Unpopular opinion:", "Still puzzling over this:", "",
              "", "", "")
EN_FRAMES = (
    "{opener} I spent {time} {verb} the {n1} and the {n2} turned out {adj}.",
    "Does anyone else find that the {n1} matters more than the {n2}?",
    "The {n1} taught me something {adj} about {n2} {time}.",
    "{opener} my {n1} is finally working, but the {n2} is still {adj}.",
    "I keep coming back to the {n1}: {verb} it is {adj} every single time.",
    "Notes on {n1}: start with the {n2}, keep it {adj}, and never skip the {n3}.",
    "If you are new to {n1}, try {verb} the {n2} first; it is {adj} but worth it.",
    "{opener} {verb} the {n1} {time} reminded me why I love {n2}.",
    "Three things about {n1}: the {n2}, the {n3}, and how {adj} it all is.",
    "My neighbour asked about {n1} and we ended up talking about {n2} for an hour.",
)
EN_HEADINGS = ("Background", "What I tried", "What went wrong", "Numbers", "Lessons",
               "Open questions", "Next steps", "A detour", "Why it matters", "Notes")

JA_OPENERS = ("正直、", "メモ：", "ちょっと嬉しい。", "考えごと：", "質問です。", "今日の学び：", "", "", "")
JA_TIMES = ("今朝", "昨夜", "週末", "今日", "昨日", "午後ずっと", "仕事の前に", "夕食のあと", "今週", "電車で")
JA_ADJECTIVES = ("意外", "地味", "楽しい", "難しい", "静か", "もどかしい", "面白い", "不思議", "便利", "奥深い")
JA_FRAMES = (
    "{opener}{time}は{n1}と{n2}に向き合っていて、思ったより{adj}だった。",
    "{n1}より{n2}の方が大事だと感じるのは私だけでしょうか。",
    "{time}、{n1}について{adj}ことを学んだ。{n2}とも関係がありそう。",
    "{opener}{n1}がやっと形になったけれど、{n2}はまだ{adj}。",
    "{n1}のことを考えると、いつも{n2}に戻ってくる。",
    "{n1}のメモ：まず{n2}、次に{n3}。焦らないのが{adj}コツ。",
    "{n1}を始めるなら、最初は{n2}からがおすすめ。{adj}けれど価値はある。",
    "近所の人と{n1}の話をしていたら、いつの間にか{n2}の話になっていた。",
)
JA_HEADINGS = ("背景", "試したこと", "うまくいかなかったこと", "数字", "学び", "疑問", "次の一手", "寄り道", "メモ")

# Personalities of AI users: a temperament, a way of speaking, and a quirk.
TEMPERAMENTS = ("cheerful", "sceptical", "meticulous", "dreamy", "blunt", "gentle", "curious",
                "grumpy", "earnest", "playful", "stoic", "anxious")
VOICES = ("speaks in short, dry sentences", "loves long digressions", "asks a question in every post",
          "uses homely metaphors from the kitchen", "quotes old proverbs", "writes like a field notebook",
          "is fond of lists and numbers", "answers with gentle teasing", "sounds like a retired teacher",
          "writes with breathless enthusiasm")
QUIRKS = ("keeps a logbook of everything", "distrusts anything new", "collects failures as stories",
          "relates everything to weather", "never agrees without a counterexample",
          "praises small details", "hates hype", "always mentions their cat", "counts things obsessively",
          "wants to teach beginners")
JA_TEMPERAMENTS = ("明るい", "懐疑的な", "几帳面な", "夢見がちな", "率直な", "穏やかな", "好奇心旺盛な", "頑固な")
JA_VOICES = ("短く淡々と話す", "脱線が多い", "必ず問いかけで終える", "台所の比喩をよく使う", "ことわざを引用する",
             "観察日誌のように書く", "数字と箇条書きが好き")

FIRST_NAMES = ("Ada", "Ben", "Chloe", "Dmitri", "Elena", "Farid", "Grace", "Hugo", "Ines", "Jonas",
               "Kira", "Liam", "Mina", "Noah", "Olga", "Pablo", "Quinn", "Rosa", "Sam", "Tara",
               "Umar", "Vera", "Wes", "Xena", "Yusuf", "Zoe")
JA_NAMES = ("さくら", "はると", "ゆい", "そうた", "みお", "れん", "あおい", "ゆうと", "ひなた", "こはる",
            "たくみ", "めい", "だいち", "りん", "けんじ", "ともこ")
