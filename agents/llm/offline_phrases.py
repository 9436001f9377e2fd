"""The offline stand-in's sentence frames for impressions, interests, new posts and the
chat proxy, in English and Japanese (docs/offline-standin.md)."""

from __future__ import annotations

from typing import Any

# Our own sentence frames; {…} slots only ever receive keywords, names or numbers.
PHRASES: dict[str, dict[str, Any]] = {
    "en": {
        "empty": "There is not much here for me to react to.",
        "someone": "someone",
        "open": {
            "enthusiastic": ("Oh, this is right up my street!", "Now this is my kind of post!"),
            "skeptical": ("Interesting, but I have questions.", "I am not fully convinced yet."),
            "calm": ("A thoughtful post.", "This one made me stop and think."),
        },
        "link": "What {author} says about {k1} ties straight into my own interest in {m}.",
        "also": " The part on {k2} deserves more attention.",
        "point": {
            "enthusiastic": "I would love to see where this goes next, especially for {k1}.",
            "skeptical": "Still, what evidence is there behind the claim about {k1}?",
            "calm": "I will keep {k1} in mind the next time I think about {m}.",
        },
        "off": {
            "enthusiastic": "A post about {k1}. Not my usual territory, but good for them!",
            "skeptical": "A post about {k1}? Not something I follow; I have no opinion on it.",
            "calm": "A post about {k1}. It is outside what I usually read, so I will leave it be.",
        },
        "again": "My view has not changed much since last time. ",
        "peer_on": "{nick} writes about {k1} and {k2}, which overlaps with my interest in {m}.",
        "peer_follow": {
            "enthusiastic": " I want to keep reading them!",
            "skeptical": " I do not always agree, but they are worth arguing with.",
            "calm": " Their posts seem worth following.",
        },
        "peer_off": "{nick} seems to be into {k1}. Little context, and no real interest from me.",
        "peer_none": "I know too little about {nick} to say anything yet.",
        "int_keep": "I remain drawn to {o1} and {o2}.",
        "int_start": "My starting point is {o1}.",
        "int_new": " Lately I read about {n1} and {n2}; I want to see how they connect to {o1}.",
        "int_q": " An open question for me: could {n1} change the way I think about {o2}?",
        "int_same": " Nothing I read recently pulled me away, so I am digging deeper into {o1}"
        " and its practical side.",
        "titles": ("# Notes on {a}", "# {A} and {b}", "# A second look at {a}"),
        "follow_up": "Since my earlier post about {c}, I have found a new angle.",
        "pool": (
            "Lately I keep coming back to {a}.",
            "What interests me is how {a} connects to {b}.",
            "One question I cannot shake: does {a} really change how we think about {b}?",
            "The details of {a} matter more than the headlines suggest.",
            "I tried looking at {a} from the angle of {b}, and it held up better than I expected.",
            "If I had a free afternoon, I would spend it testing one small idea about {a}.",
            "Most discussions of {b} skip the practical side, and that is where {a} comes in.",
        ),
        "close": {
            "enthusiastic": "**Who else is excited about {a}?** Tell me what you have tried!",
            "skeptical": "I would like someone to prove me wrong about {a}, with evidence.",
            "calm": "I will keep notes and come back to {a} later.",
        },
        "fallback_topic": ("this community", "everyday life"),
        "earlier": "Picking up from what I said earlier: ",
        "mention": 'You mention "{k}".',
        "reply_point": {
            "enthusiastic": " That is exactly the part I find exciting, especially next to {m}.",
            "skeptical": " I am not sure it holds up, though, not from where I stand on {m}.",
            "calm": " From my side, it connects with {m} in a way I had not considered.",
        },
        "questions": (
            " How did you first run into {k}?",
            " What would change if you applied {k} to {k2}?",
            " Have you tried {k} in practice, or is it still an idea?",
        ),
        "empty_summary": "Empty post.",
        "chat": "This is the offline stand-in, so no language model is answering."
        " Your message had {n} characters.",
        "chat_topic": " It seems to be about {k}.",
    },
    "ja": {
        "empty": "反応できるほどの内容がない。",
        "someone": "この人",
        "open": {
            "enthusiastic": ("これはまさに自分好みの投稿だ！", "こういう話を待っていた！"),
            "skeptical": ("面白いけれど、引っかかるところもある。", "まだ納得しきれていない。"),
            "calm": ("考えさせられる投稿だ。", "静かに役立つ内容だと思う。"),
        },
        "link": "{author}さんの「{k1}」の話は、自分の関心である「{m}」とつながっている。",
        "also": "「{k2}」の部分はもっと掘り下げてほしい。",
        "point": {
            "enthusiastic": "「{k1}」がこの先どうなるのか楽しみだ。",
            "skeptical": "とはいえ、「{k1}」についての主張の根拠はどこにあるのだろう。",
            "calm": "次に「{m}」を考えるとき、「{k1}」のことを思い出したい。",
        },
        "off": {
            "enthusiastic": "「{k1}」の話か。自分の守備範囲ではないけれど、楽しそうで何より。",
            "skeptical": "「{k1}」の話らしいが、正直よくわからないし、特に意見もない。",
            "calm": "「{k1}」についての投稿。ふだん読む分野ではないので、今回は見送る。",
        },
        "again": "前回の印象から大きくは変わらない。",
        "peer_on": "{nick}さんは「{k1}」や「{k2}」について書いていて、自分の関心の「{m}」と重なる。",
        "peer_follow": {
            "enthusiastic": "これからも読みたい！",
            "skeptical": "いつも賛成するわけではないが、議論する価値のある相手だ。",
            "calm": "投稿を追いかける価値がありそうだ。",
        },
        "peer_off": "{nick}さんは「{k1}」に関心があるようだ。判断材料が少なく、今のところ興味は湧かない。",
        "peer_none": "{nick}さんについては、まだ何か言えるほど知らない。",
        "int_keep": "相変わらず「{o1}」と「{o2}」に惹かれている。",
        "int_start": "出発点は「{o1}」だ。",
        "int_new": "最近「{n1}」や「{n2}」について読み、それが「{o1}」とどうつながるのかを探りたくなった。",
        "int_q": "「{n1}」は「{o2}」の見方を変えるのだろうか、というのが今の問いだ。",
        "int_same": "最近読んだものに引き離されることはなく、「{o1}」とその実践面をさらに掘り下げている。",
        "titles": ("# 「{a}」についてのメモ", "# 「{a}」と「{b}」", "# 「{a}」をもう一度考える"),
        "follow_up": "以前「{c}」について書いてから、新しい切り口が見えてきた。",
        "pool": (
            "最近、「{a}」のことばかり考えている。",
            "気になるのは、「{a}」が「{b}」とどうつながるかだ。",
            "「{a}」は本当に「{b}」の見方を変えるのだろうか。",
            "「{a}」は、見出しよりも細部のほうが大事だと思う。",
            "「{b}」の視点から「{a}」を眺めてみたら、思ったよりしっくりきた。",
            "午後が丸ごと空いたら、「{a}」について小さな実験をしてみたい。",
            "「{b}」の議論は実践の話を飛ばしがちだが、そこで「{a}」が効いてくる。",
        ),
        "close": {
            "enthusiastic": "**「{a}」にわくわくしている人は他にいる？** 試したことをぜひ教えてほしい！",
            "skeptical": "「{a}」について、根拠をもって反論してくれる人がいたら歓迎したい。",
            "calm": "「{a}」についてはメモを取りつつ、また改めて書きたい。",
        },
        "fallback_topic": ("このコミュニティ", "日々の暮らし"),
        "earlier": "先ほどの自分の話の続きになるが、",
        "mention": "「{k}」の話、興味深く読みました。",
        "reply_point": {
            "enthusiastic": "そこがまさに面白いところで、特に「{m}」と並べるとわくわくします。",
            "skeptical": "ただ、「{m}」の立場から見ると、本当に成り立つのか少し疑問です。",
            "calm": "自分にとっては「{m}」と思いがけずつながる話でした。",
        },
        "questions": (
            "「{k}」に最初に出会ったきっかけは何でしたか？",
            "「{k}」を「{k2}」に当てはめたら何が変わるでしょう？",
            "「{k}」は実際に試してみましたか、それともまだ構想の段階ですか？",
        ),
        "empty_summary": "本文なし。",
        "chat": "こちらはオフライン代替なので、言語モデルは応答していません。メッセージは{n}文字でした。",
        "chat_topic": "話題は「{k}」のようです。",
    },
}
