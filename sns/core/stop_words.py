"""Boundaries said in plain words: does a text written to an AI user ask it to stop?
(docs/messages.md, "Boundaries for AI users").

One deterministic rule, in English and Japanese (the languages we prompt in): a
request to stop writing ("stop messaging me", "leave me alone", "please don't reply
to me", 「もう連絡しないで」, 「返信しないで」, ...) is an imperative aimed at the
reader. Its near-misses are the same words in another mood — "don't stop messaging
me", "you don't reply to me", 「返信しないで寝ちゃった」 — or other senses of "stop"
("stop motion", "I can't stop thinking about it"), and are not requests. The respond
path asks this before the model call; the model's own `stop` field comes second.
"""

from __future__ import annotations

import re
import unicodedata

# Ways of writing to someone that a person may ask an AI user to stop.
_VERBS_ING = (
    r"messag(?:e|ing)|text(?:ing)?|writ(?:e|ing)(?: to)?|repl(?:y|ying)(?: to)?|respond(?:ing)?(?: to)?"
    r"|answer(?:ing)?|contact(?:ing)?|talk(?:ing)?(?: to)?|mention(?:ing)?|dm(?:ing)?|dming"
    r"|bother(?:ing)?|pester(?:ing)?|spam(?:ming)?|ping(?:ing)?|follow(?:ing)? me around"
    r"|send(?:ing)? me(?: messages| dms| things)?|reach(?:ing)? out(?: to)?"
)
_VERB = (
    r"message|text|write(?: to)?|reply(?: to)?|respond(?: to)?|answer|contact|talk(?: to)?|mention"
    r"|dm|bother|pester|spam|ping|send me(?: messages| dms| anything)?|reach out(?: to)?"
)
_ME = r"(?:me|us)\b"

_ENGLISH = (
    # "stop messaging me", "stop replying to me", "please stop sending me messages"
    ("stop", re.compile(rf"\bstop (?:{_VERBS_ING})(?: {_ME}|\b(?= *(?:[.!?,;]|$|please|now|already)))")),
    # "quit messaging me"
    ("stop", re.compile(rf"\bquit (?:{_VERBS_ING}) {_ME}")),
    # "don't reply to me", "do not message me", "please don't contact me again"
    ("dont", re.compile(rf"\b(?:don't|do not|dont) (?:ever )?(?:{_VERB}) {_ME}")),
    # "never message me again"
    ("always", re.compile(rf"\bnever (?:{_VERB}) {_ME} again\b")),
    # "leave me alone", "leave me be"
    ("leave", re.compile(r"\bleave (?:me|us) (?:alone|be)\b")),
    # "no more messages", "no more replies, please"
    ("always", re.compile(r"\bno more (?:messages|replies|dms|mentions)\b(?! (?:than|from (?:anyone|others)))")),
    # "I don't want to hear from you", "I don't want your messages"
    ("always", re.compile(
        r"\bi (?:don't|do not|dont) want (?:to (?:hear from|talk to|be contacted by) you|your (?:messages|replies))\b"
    )),
)
# A word before the phrase that makes it a statement, a question or its opposite:
# "don't stop messaging me", "you don't reply to me", "I can't stop texting".
_NOT_A_REQUEST_BEFORE = frozenset(
    ["don't", "dont", "not", "never", "can't", "cannot", "can", "won't", "wont", "didn't", "doesn't", "couldn't", "wouldn't", "shouldn't", "i", "you", "he", "she", "they", "we", "it", "who", "people", "would", "will", "to", "i'll", "i'd", "i'm", "we'll", "we're", "you'll", "gonna", "should", "must", "might", "may", "could", "always"]
)
# Before "leave me alone": only a negation makes it its opposite ("don't leave me alone").
_NOT_BEFORE_LEAVE = frozenset(["don't", "dont", "not", "never", "won't", "wont", "can't", "cannot", "didn't", "doesn't"])
# Words that soften a request ("please stop ...", "Aiko, just stop ..."): look past them.
_SOFTENERS = frozenset(["please", "pls", "plz", "just", "kindly", "now", "so", "then", "and", "but", "ok", "okay", "seriously", "really"])
# "can you stop messaging me?", "I want you to stop messaging me": a request after all.
_ASKING = frozenset(["can", "could", "would", "will", "please"])

# Japanese: the "〜ないで" forms are requests only at the end of a clause ("...ないで。",
# "...ないでください"); "返信しないで寝ちゃった" (slept without replying) is not one.
_JA_END = r"(?=(?:ください|下さい|くれ|くださ|ほしい|欲しい|もらえ|ね|よ|な|ってば)?\s*(?:[。！!？?…\s」』)）]|$))"
_JA_ACT = r"(?:連絡|返信|返事|メッセージ|メッセ|DM|ＤＭ|dm|リプ|リプライ|メンション|コメント)"
_JAPANESE = (
    # 「もう連絡しないで」「返信しないでください」「メッセージを送らないで」「DMしてこないで」
    (re.compile(rf"{_JA_ACT}(?:を|は|も)?(?:し|送ら|送ってこ|してこ|よこさ|寄越さ)ないで{_JA_END}")),
    # 「話しかけないで」「構わないで」「関わらないで」「絡まないで」
    (re.compile(rf"(?:話しかけ|話し掛け|構わ|かまわ|関わら|かかわら|絡ま|からま)ないで{_JA_END}")),
    # 「ほっといて」「放っておいて」
    (re.compile(rf"(?:ほっといて|ほうっておいて|放っておいて|放っといて|ほっておいて){_JA_END}")),
    # 「連絡をやめて」「返信はやめてください」
    (re.compile(rf"{_JA_ACT}(?:を|は|も)?(?:やめて|止めて|控えて){_JA_END}")),
    # 「二度と連絡してこないで」 is caught above; 「もう連絡しないでほしい」 too.
)

_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "`": "'", "＇": "'"})
_WORD_BEFORE = re.compile(r"([a-z']+)\W*$")


def _normalised(text: str) -> str:
    # NFKC folds full-width letters and punctuation ("ＳＴＯＰ", "！"); quoted lines
    # ("> stop messaging me") are someone else's words, not the writer's request.
    lines = [line for line in unicodedata.normalize("NFKC", text).splitlines() if not line.lstrip().startswith(">")]
    return " ".join(" ".join(lines).translate(_APOSTROPHES).lower().split())


def _words_before(text: str, start: int, count: int = 3) -> list[str]:
    """Up to `count` words right before `start`, nearest first, past any softener; a
    punctuation mark between ends the look (the phrase opens a clause: "Aiko, stop...")."""
    words: list[str] = []
    rest = text[:start]
    while len(words) < count:
        found = _WORD_BEFORE.search(rest)
        if not found or found.group(0)[len(found.group(1)):].strip():
            break
        rest = rest[: found.start()]
        if not words and found.group(1) in _SOFTENERS:
            continue
        words.append(found.group(1))
    return words


def _is_request(kind: str, text: str, match: re.Match) -> bool:
    if kind == "always":
        return True
    before = _words_before(text, match.start())
    nearest = before[0] if before else ""
    if kind == "leave":
        return nearest not in _NOT_BEFORE_LEAVE
    if nearest not in _NOT_A_REQUEST_BEFORE:
        return True
    # "can you stop messaging me?", "I asked you to stop messaging me": aimed at the
    # reader, and about the writer.
    aimed = match.group(0).rstrip().endswith((" me", " us"))
    if kind == "stop" and aimed and nearest == "you" and len(before) > 1 and before[1] in _ASKING:
        return True
    return kind == "stop" and aimed and nearest == "to" and len(before) > 1 and before[1] in ("you", "u")


def stop_request(text: str | None) -> str | None:
    """The words of `text` that ask its reader to stop contacting the writer, or None.
    Deterministic: the first such phrase, lower-cased."""
    if not isinstance(text, str) or not text.strip():
        return None
    norm = _normalised(text)
    for kind, pattern in _ENGLISH:
        for match in pattern.finditer(norm):
            if _is_request(kind, norm, match):
                return match.group(0).strip()
    for pattern in _JAPANESE:
        match = pattern.search(norm)
        if match:
            return match.group(0)
    return None
