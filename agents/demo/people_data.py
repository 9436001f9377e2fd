"""What the demo's people write while the demo runs (agents/demo/people.py): plain data,
written for this demo, in English and Japanese. Root posts go out in list order; a reply
is chosen by the language of the post it answers. The demo's login account (Maya Ortega)
writes none of them: what she says is the visitor's.
"""

from __future__ import annotations

# (author nickname, locale, tags, content), in the order they are posted.
ROOT_POSTS: list[tuple[str, str, list[str], str]] = [
    (
        "Harold Pike",
        "en-US",
        ["history"],
        (
            "Found a ledger at the museum today: a grocer's accounts from 1871, every sack of flour "
            "and twist of tea written in a careful copperplate. Prices in farthings. I could read it all afternoon."
        ),
    ),
    (
        "美咲",
        "ja-JP",
        ["料理"],
        "今日は梅干しの土用干し。ベランダが一面の梅で、部屋まで甘酸っぱい香りがします。",
    ),
    (
        "Priya Natarajan",
        "en-US",
        ["postgresql"],
        (
            "Today's lesson: an index on (status, created_at) is not the same as one on "
            "(created_at, status). The planner knew. I did not."
        ),
    ),
    (
        "健太",
        "ja-JP",
        ["写真"],
        "朝五時の川べりで、霧の中を走るランナーを撮りました。シャッターを切ったのは一回だけ。",
    ),
    (
        "Tomás Reyes",
        "en-US",
        ["astronomy"],
        (
            "Clear skies at last. Burro and I found the Whirlpool Galaxy before the moon came up; "
            "the spiral arms were there if you looked away from them."
        ),
    ),
    ("千代", "ja-JP", ["園芸"], "庭の柿が色づき始めました。今年は鳥との競争になりそうです。"),
    (
        "Dex Calloway",
        "en-US",
        ["music"],
        (
            "Played 'Body and Soul' tonight on the flat piano and let the bass take the bridge. "
            "Best decision of the week."
        ),
    ),
    (
        "彩",
        "ja-JP",
        ["読書"],
        "図書館で借りた古い旅行記、前の読者の書き込みが面白くて本文より先に読んでしまう。",
    ),
    (
        "Sam Adebayo",
        "en-US",
        ["cycling"],
        "Rode to work in the rain and arrived smiling, which my colleagues found suspicious.",
    ),
    (
        "美咲",
        "ja-JP",
        ["料理"],
        "昆布と鰹節の一番だしを取って、残りで佃煮を作りました。何も捨てない台所が好きです。",
    ),
    (
        "Harold Pike",
        "en-US",
        ["history"],
        (
            "A visitor asked why the church clock runs four minutes slow. Railway time, I told her; "
            "the town never quite forgave London."
        ),
    ),
    (
        "健太",
        "ja-JP",
        ["写真"],
        "古いフィルムカメラを修理に出したら、前の持ち主の写真が一枚だけ残っていました。",
    ),
    (
        "Priya Natarajan",
        "en-US",
        ["programming"],
        (
            "Wrote a migration that ran in four seconds on staging and forty minutes in production. "
            "Same rows, different statistics. Writing it up tonight."
        ),
    ),
    (
        "千代",
        "ja-JP",
        ["園芸"],
        "冬に備えて、ばらの株元に腐葉土を厚めに敷きました。来年の春が楽しみです。",
    ),
    (
        "Tomás Reyes",
        "en-US",
        ["astronomy"],
        (
            "The new street lights on the county road are shielded. Small victory; I may bake a "
            "cake for the county engineer."
        ),
    ),
    (
        "彩",
        "ja-JP",
        ["読書"],
        "雨の日は短編集に限る。一編読むごとにお茶を淹れ直すのが最近の楽しみ。",
    ),
]

# Replies by language; each person takes them in turn from the position of the reply.
REPLIES: dict[str, list[str]] = {
    "en": [
        "This is lovely. I had never thought about it that way.",
        "Saving this for the weekend, when I have time to try it properly.",
        "I tried something close to this last year and it went sideways; your version makes more sense.",
        "Thanks for writing this up. Do you have a source I could read next?",
        "Ha, the same thing happened to me, almost word for word.",
        "I disagree a little, but it is the kind of post that makes me want to check.",
        "My grandmother used to say something very similar.",
        "Could you say more about the second part? That is where I got lost.",
    ],
    "ja": [
        "読んでいて、なるほどと思いました。そういう見方もあるんですね。",
        "週末にじっくり試してみます。ありがとうございます。",
        "去年似たことをやって失敗しました。この方法なら上手くいきそうです。",
        "まとめてくださってありがとうございます。参考になる本はありますか？",
        "まったく同じことが私にもありました。",
        "少し違う意見ですが、確かめてみたくなる投稿でした。",
        "祖母がよく似たことを言っていました。",
        "後半をもう少し詳しく聞かせてもらえますか？",
    ],
}

# Posts of the seed (indexes into seed_data.POSTS) that their authors publish to the web,
# so that a visitor who is not logged in finds something on the front page.
PUBLISHED_SEED_POSTS = (0, 1, 2)
