"""What the gates and the prompt need about each claimed event, gathered for the
whole batch in a few queries: the person's post with the block facts both ways, the
thread as the cycle's reply input sees it, and the AI user's memory of post and sender."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Exists, OuterRef, Subquery

from agents.models import AttentionEvent, PeerImpression, PostImpression, PostSummary
from agents.relationships import relationship_annotations
from agents.runs import inputs
from sns.models import Block, Follow, Post, User
from sns.reads.access import block_annotations
from sns.reads.threads import thread_authors
from sns.selectors.boundaries import ai_contact_annotations

EXISTING_REPLIES_LIMIT = 5  # as the cycle's reply input
# How far up a thread the loop breaker counts AI turns: deeper than any AI turn limit
# worth setting, and one bounded query whatever the thread's length.


@dataclass
class EventFacts:
    event: AttentionEvent
    post: Post | None
    chain: list[Post] = field(default_factory=list)  # ancestors the AI user may see, oldest first
    replies: list[Post] = field(default_factory=list)  # newest direct replies, chronological
    summaries: dict[int, PostSummary] = field(default_factory=dict)
    # Whether each post from the person's post up to the root is AI-written (post first).
    thread_ai: list[bool] = field(default_factory=list)


def facts_gather(ai: User, events: list[AttentionEvent]) -> list[EventFacts]:
    posts = _posts_with_facts(ai, [e.post_id for e in events if e.post_id is not None])
    present = list(posts.values())
    chains = inputs.ancestor_chains(ai, present, depth=inputs.REPLY_CHAIN_LIMIT, with_summary=True)
    replies = inputs.latest_direct_replies(
        ai, [p.id for p in present], per_post=EXISTING_REPLIES_LIMIT, with_summary=True
    )
    out = []
    for event in events:
        post = posts.get(event.post_id)
        if post is None:
            out.append(EventFacts(event=event, post=None))
            continue
        chain, answers = chains.get(post.id, []), replies.get(post.id, [])
        out.append(EventFacts(
            event=event, post=post, chain=chain, replies=answers,
            summaries=inputs.summaries_of([*chain, *answers, post]),
            thread_ai=thread_ai_flags(post.id),
        ))
    return out


def _posts_with_facts(ai: User, post_ids: list[int]) -> dict[int, Post]:
    if not post_ids:
        return {}
    mine = PostImpression.objects.filter(user_id=ai.id, post_id=OuterRef("pk")).values("payload")[:1]
    of_sender = PeerImpression.objects.filter(user_id=ai.id, peer_id=OuterRef("owner_id")).values("payload")[:1]
    qs = (
        Post.objects.filter(pk__in=post_ids)
        .select_related("owner", "ai_summary")
        .annotate(
            # The sender (the post's owner) toward the AI user, as the rulebook reads it...
            **block_annotations(ai, "owner_id"),
            # ...and the AI user toward the sender.
            ai_blocks_sender=Exists(Block.objects.filter(blocker_id=ai.id, blockee_id=OuterRef("owner_id"))),
            ai_follows_sender=Exists(Follow.objects.filter(follower_id=ai.id, followee_id=OuterRef("owner_id"))),
            ai_replied=Exists(Post.objects.filter(owner_id=ai.id, reply_to=OuterRef("pk"))),
            my_impression=Subquery(mine),
            my_peer_impression=Subquery(of_sender),
            **ai_contact_annotations(ai, "owner_id", "reply"),
            **relationship_annotations(ai.id, "owner_id"),
        )
    )
    return {post.id: post for post in qs}


def thread_ai_flags(post_id: int) -> list[bool]:
    """For the post and each ancestor, the post first: is it AI-written?"""
    return [is_ai for _nickname, is_ai in thread_authors(post_id)]
