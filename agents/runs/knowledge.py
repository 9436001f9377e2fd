"""Knowledge grounding: draft → retrieve → revise (docs/agent-cycle.md §8.1).

An admin marks accounts (`STGY_KNOWLEDGE_ACCOUNTS`, by email), accounts' publications
(`STGY_KNOWLEDGE_PUBLICATIONS`: their published posts only) and tags
(`STGY_KNOWLEDGE_TAGS`) as knowledge, in the settings or in Django admin (KnowledgeSource); a post of such an account or publication, or
carrying such a tag, is a *knowledge post*: an ordinary post, read through the one visibility rule
(sns/selectors/visibility.py) as the AI user who writes. `knowledge_q` is the one
place that says which posts are knowledge.

When an AI user has drafted a root post, a reply or an answer, `revise_drafts`
looks for the knowledge posts most relevant to the draft — the draft's words matched
against the posts' text and summaries (as search matches them, folded), plus the
vector similarity of the draft to each post's summary vector — and, when some pass
the relevance floor, asks the model once to revise the draft with their text in the
prompt (the `revise` task), citing them. At most `STGY_KNOWLEDGE_ROUNDS` rounds, each
one query and one model call per text; the AI user's budget is checked by the
gateway before the call like any other. A failed revision leaves the draft as it was.
The published text ends with a "Sources" line of Markdown links to the posts cited.
With no knowledge configured nothing here runs: no query, no call.
"""

from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.db.models import BooleanField, Q
from django.db.models.expressions import RawSQL

from agents.embeddings import embed_texts, features_for_model, get_embedder, model_name
from agents.embeddings.hash import HashEmbedder
from agents.llm.errors import LlmUnavailable
from agents.llm.parsing import parse_new_post
from agents.models import KnowledgeSource
from agents.prompt_text import post_prompt_text
from agents.vectors import cosine, decode_features
from sns.core.ids import id_to_hex
from sns.models import Post, PostTag, User
from sns.search.query import fold
from sns.selectors import viewable_posts
from sns.selectors.publication import public_posts_q

from .llm_calls import LlmJob, run_jobs

TASK = "revise"
# The draft's words tried against the knowledge posts: a draft's most frequent words
# say what it is about; more of them only widen the candidate query.
MAX_TERMS = 8
CANDIDATES = 40
# A post that has this many of the draft's words matches it fully; one shared word is
# a quarter, under the default floor: a single common word is no topic.
WORDS_FOR_FULL_MATCH = 4
SOURCES_LABEL = {"ja": "出典"}
_WORD = re.compile(r"[^\W\d_][\w'-]{3,}", re.UNICODE)
_CJK_RUN = re.compile(r"[\u30a0-\u30ff\u3400-\u4dbf\u4e00-\u9fff]{2,}")
_STOP = frozenset(
    {
        "this",
        "that",
        "with",
        "from",
        "have",
        "will",
        "your",
        "what",
        "when",
        "they",
        "them",
        "their",
        "there",
        "about",
        "which",
        "would",
        "could",
        "should",
        "been",
        "were",
        "into",
        "more",
        "than",
        "then",
        "just",
        "like",
        "also",
        "only",
        "some",
        "very",
        "much",
        "such",
        "each",
        "other",
        "here",
        "where",
        "while",
        "these",
        "those",
        "being",
        "over",
        "does",
        "doing",
        "because",
        "after",
        "before",
    }
)


SOURCES_KEY = "knowledge-sources:v1"


def admin_sources() -> dict[str, list[str]]:
    """The sources marked in Django admin (KnowledgeSource), by kind: read once and kept
    in the cache until one is saved or deleted (`sources_changed`), so a site with none
    pays no query per text written."""
    found = cache.get(SOURCES_KEY)
    if found is None:
        found = {kind: [] for kind in KnowledgeSource.Kind.values}
        for kind, value in KnowledgeSource.objects.values_list("kind", "value"):
            found[kind].append(value)
        cache.set(SOURCES_KEY, found, None)
    return found


def sources_changed(**_kwargs) -> None:
    """KnowledgeSource's post_save and post_delete (agents/apps.py)."""
    cache.delete(SOURCES_KEY)


def knowledge_q() -> Q | None:
    """Which posts are knowledge, as a filter on posts; None when nothing is configured."""
    marked = admin_sources()
    accounts = [a.strip() for a in [*settings.STGY_KNOWLEDGE_ACCOUNTS, *marked["account"]] if a.strip()]
    publications = [
        a.strip() for a in [*settings.STGY_KNOWLEDGE_PUBLICATIONS, *marked["publication"]] if a.strip()
    ]
    tags = [t.strip() for t in [*settings.STGY_KNOWLEDGE_TAGS, *marked["tag"]] if t.strip()]
    if not accounts and not publications and not tags:
        return None
    q = Q(pk__in=[])
    if accounts:
        q |= Q(owner__in=User.objects.filter(email__in=accounts).values("pk"))
    if publications:
        # An account's publication: its posts on its public site (the one rule of
        # sns/selectors/publication.py), not its drafts and everyday posts.
        q |= Q(public_posts_q(), owner__in=User.objects.filter(email__in=publications).values("pk"))
    if tags:
        # A subquery, not a join: a post with two such tags is still one row.
        q |= Q(pk__in=PostTag.objects.filter(name__in=tags).values("post_id"))
    return q


def _contains_any(terms: list[str]) -> Q | RawSQL:
    """Posts whose content contains any of `terms`, case-insensitively. On PostgreSQL
    one `ILIKE ANY`, which the trigram index can serve (Django's icontains wraps the column in
    UPPER(), which it does not; sns/search/engine.py reads the same way)."""
    if connection.vendor == "postgresql":
        patterns = [
            "%" + t.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
            for t in terms
        ]
        column = (
            connection.ops.quote_name(Post._meta.db_table)
            + "."
            + connection.ops.quote_name(Post._meta.get_field("content").column)
        )
        return RawSQL(f"{column} ILIKE ANY(%s)", (patterns,), output_field=BooleanField())
    matches = Q()
    for term in terms:
        matches |= Q(content__icontains=term)
    return matches


def is_knowledge(post: Post) -> bool:
    q = knowledge_q()
    return q is not None and Post.objects.filter(q, pk=post.pk).exists()


def search_terms(text: str) -> list[str]:
    """The draft's most frequent words (folded; Latin words of four letters and more
    without common function words, and runs of kanji or katakana), most frequent first."""
    folded = fold(text)
    counts: dict[str, int] = {}
    for word in [*_WORD.findall(folded), *_CJK_RUN.findall(folded)]:
        if word not in _STOP:
            counts[word] = counts.get(word, 0) + 1
    return sorted(counts, key=lambda w: (-counts[w], -len(w)))[:MAX_TERMS]


def _draft_vector(text: str):
    """The draft's vector from the local embedder only: a remote one would be a second
    model request per text, which this step does not spend (docs/agent-cycle.md §8.1)."""
    if not isinstance(get_embedder(), HashEmbedder):
        return None, None
    matrix, name = embed_texts([text])
    return matrix[0], name


def retrieve(viewer: User, text: str, *, exclude: set[int] = frozenset()) -> list[dict[str, Any]]:
    """The knowledge posts most relevant to `text` that `viewer` may see, best first,
    at most STGY_KNOWLEDGE_TOP_N, each with its score in [0, 1]; those under
    STGY_KNOWLEDGE_MIN_SCORE are left out. One query."""
    q = knowledge_q()
    terms = search_terms(text)
    if q is None or not terms:
        return []
    rows = list(
        viewable_posts(
            viewer, Post.objects.filter(q).filter(_contains_any(terms)).exclude(owner_id=viewer.id)
        )
        .exclude(pk__in=exclude)
        .order_by("-id")
        .values_list(
            "id",
            "content",
            "owner__nickname",
            "ai_summary__summary",
            "ai_summary__features",
            "ai_summary__embedding_model",
        )[:CANDIDATES]
    )
    if not rows:
        return []
    vector, vector_model = _draft_vector(text)
    current = model_name() if vector is not None else None
    scored = []
    for post_id, content, author, summary, features, feature_model in rows:
        body = fold(f"{content}\n{summary or ''}")
        words = min(1.0, sum(1 for t in terms if t in body) / WORDS_FOR_FULL_MATCH)
        stored = (
            features_for_model(features, feature_model, current=current)
            if vector is not None
            else None
        )
        if stored is not None and vector_model == feature_model:
            score = 0.5 * words + 0.5 * max(0.0, cosine(vector, decode_features(stored)))
        else:
            score = words
        if score >= settings.STGY_KNOWLEDGE_MIN_SCORE:
            scored.append(
                {"id": post_id, "content": content, "author": author, "score": round(score, 3)}
            )
    scored.sort(key=lambda r: (-r["score"], -r["id"]))
    return scored[: settings.STGY_KNOWLEDGE_TOP_N]


def _title(content: str) -> str:
    for line in content.splitlines():
        line = line.strip().lstrip("#").strip()
        if line:
            return line[:80]
    return ""


def post_path(post_id: int) -> str:
    return f"/posts/{id_to_hex(post_id)}"


def sources_line(locale: str, cited: list[dict[str, Any]]) -> str:
    """The Markdown line naming the posts a text drew on: rendered as links on pages,
    plain Markdown in the API's content."""
    label = SOURCES_LABEL.get(locale.split("-", 1)[0], "Sources")
    links = ", ".join(
        f"[{_title(c['content']) or c['author']}]({post_path(c['id'])})" for c in cited
    )
    return f"{label}: {links}"


def _revise_payload(draft: str, hits: list[dict[str, Any]]) -> dict[str, Any]:
    limit = settings.STGY_KNOWLEDGE_TEXT_LIMIT
    return {
        "draft": draft,
        "sources": [
            {
                "ref": i + 1,
                "author": h["author"],
                "title": _title(h["content"]),
                "content": post_prompt_text(h["content"], limit),
            }
            for i, h in enumerate(hits)
        ],
    }


def revise_drafts(
    jobs: list[LlmJob], viewer: User, *, profile: dict, tier: str, run_id: int, stage: str
) -> None:
    """Revise the drafts of `jobs` that succeeded (for an answer, the ones that answer)
    in place: `job.result["content"]` becomes the revision with its Sources line, and
    `job.extra["knowledge"]` records the draft, the posts retrieved with their scores
    and the revision. Nothing happens when no knowledge is configured."""
    if knowledge_q() is None:
        return
    drafts = [
        j
        for j in jobs
        if j.result is not None
        and j.result.get("content")
        and j.result.get("answer", True)
        and not j.result.get("stop")
    ]
    cited: dict[int, dict[int, dict[str, Any]]] = {id(j): {} for j in drafts}
    for round_no in range(max(0, settings.STGY_KNOWLEDGE_ROUNDS)):
        revisions: list[tuple[LlmJob, LlmJob, list[dict[str, Any]]]] = []
        for job in drafts:
            record = job.extra.setdefault(
                "knowledge", {"draft": job.result["content"], "rounds": []}
            )
            hits = retrieve(viewer, job.result["content"], exclude=set(cited[id(job)]))
            step: dict[str, Any] = {
                "retrieved": [{"postId": id_to_hex(h["id"]), "score": h["score"]} for h in hits]
            }
            record["rounds"].append(step)
            if hits:
                revise = LlmJob(
                    key=job.key,
                    task=TASK,
                    locale=job.locale,
                    payload=_revise_payload(job.result["content"], hits),
                    max_chars=job.max_chars,
                    tag_num=job.tag_num,
                    parse=lambda text, n=job.tag_num: parse_new_post(text, n),
                )
                revisions.append((job, revise, hits))
        if not revisions:
            break
        try:
            run_jobs(
                [r for _, r, _ in revisions],
                profile=profile,
                tier=tier,
                user_id=viewer.id,
                run_id=run_id,
                stage=stage,
            )
        except LlmUnavailable as exc:  # the breaker is open: the drafts stand
            for _, revise, _ in revisions:
                revise.error = f"{type(exc).__name__}: {exc}"
        for job, revise, hits in revisions:
            step = job.extra["knowledge"]["rounds"][-1]
            if revise.result is None:
                step["error"] = revise.error  # the draft stands; the failure is this text's
                continue
            job.result["content"] = revise.result["content"]
            step["revision"] = revise.result["content"]
            cited[id(job)].update((h["id"], h) for h in hits)
    for job in drafts:
        if cited[id(job)]:
            line = sources_line(job.locale, list(cited[id(job)].values()))
            room = settings.STGY_CONTENT_LENGTH_LIMIT - len(line) - 2
            job.result["content"] = job.result["content"][:room].rstrip() + "\n\n" + line
            job.extra["knowledge"]["cited"] = [id_to_hex(i) for i in cited[id(job)]]
