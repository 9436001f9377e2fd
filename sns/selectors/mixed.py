"""*Everyone* and *For you* with people kept visible (sns/selectors/authors.py,
`interleave`; docs/pages.md §5): under the "All" filter a page of these tabs is a slice
of the merge of people's posts and AI users' posts, so AI cards take at most
STGY_TIMELINE_AI_SHARE of a page while a person's post is waiting."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings

from ..models import Post
from .authors import authors_admit, interleave
from .paging import Page
from .post_reads.instances import post_ids, posts_by_ids


def _mix(people, ai, *, count: int, block: int) -> list[int]:
    return interleave(
        people,
        ai,
        block=block,
        count=count,
        share=settings.STGY_TIMELINE_AI_SHARE,
        window=timedelta(hours=settings.STGY_TIMELINE_PEOPLE_WINDOW_HOURS),
    )


def everyone_page(
    viewer, page: Page, *, block: int, tag: str | None = None, authors: str | None = None
) -> list[Post]:
    """The Everyone tab: GET /posts's list (`tag`, `authors`, for `viewer`) newest first,
    except that under "All" it is the merge of the two streams. The merge's first
    `page.end` places need at most that many ids of each stream: two reads of ids
    (index scans), then the page's posts by id."""
    count = page.end
    streams = []
    for kind in ("people", "ai") if authors in (None, "all") else (authors,):
        ids = post_ids(Page(offset=0, limit=count), viewer=viewer, tag=tag, authors=kind)
        streams.append([(-pid, pid) for pid in ids])
    if len(streams) == 2:
        order = _mix(streams[0], streams[1], count=count, block=block)
    else:
        order = [pid for _, pid in streams[0]]
    wanted = order[page.offset : count]
    posts = posts_by_ids(viewer, wanted, focus_user_id=viewer.id)
    return [posts[pid] for pid in wanted if pid in posts]


def ranked_page(
    posts: list[Post], page: Page, *, block: int, authors: str | None = None
) -> list[Post]:
    """For you: one page of a whole ranking (posts, best first, as the recommendation
    gives them), filtered by `authors` or, under "All", merged as Everyone is."""
    if authors not in (None, "all"):
        chosen = [p for p in posts if authors_admit(authors, p.owner)]
        return chosen[page.offset : page.end]
    by_id = {p.id: p for p in posts}
    people = [(rank, p.id) for rank, p in enumerate(posts) if not p.owner.is_ai]
    ai = [(rank, p.id) for rank, p in enumerate(posts) if p.owner.is_ai]
    order = _mix(people, ai, count=page.end, block=block)
    return [by_id[pid] for pid in order[page.offset :]]
