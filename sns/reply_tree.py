"""The conversation under a post, a few levels deep: the replies a post page lists, their
replies, and theirs (templates/posts/_reply_tree.html). One query per level, the first
PER_PARENT replies of each parent in order, so a long thread costs the same queries as a
short one; what is left out is counted, for a "show more replies" link."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import F, Window
from django.db.models.functions import RowNumber

from .models import Post
from .selectors import post_queryset, viewable_posts

DEPTH = 4  # levels shown, the page's own replies included
PER_PARENT = 5


@dataclass
class ReplyNode:
    post: Post
    children: list[ReplyNode] = field(default_factory=list)
    more: int = 0  # replies of this post not shown here


def reply_tree(replies: list[Post], *, viewer, depth: int = DEPTH, per_parent: int = PER_PARENT) -> list[ReplyNode]:
    """The tree under `replies` as `viewer` sees it: replies hidden from them
    (sns/selectors/visibility.py) take no place among the first PER_PARENT."""
    focus_user_id = viewer.id
    nodes = [ReplyNode(post) for post in replies]
    level = nodes
    for _ in range(depth - 1):
        parents = [node for node in level if node.post.reply_count]
        if not parents:
            break
        first = (
            viewable_posts(viewer)
            .filter(reply_to__in=[node.post.id for node in parents])
            .annotate(rank=Window(RowNumber(), partition_by=[F("reply_to")], order_by=F("id").asc()))
            .filter(rank__lte=per_parent)
            .values("id")
        )
        by_parent: dict[int, list[Post]] = defaultdict(list)
        for child in post_queryset(focus_user_id).filter(id__in=first).order_by("id"):
            by_parent[child.reply_to].append(child)
        level = []
        for node in parents:
            node.children = [ReplyNode(child) for child in by_parent.get(node.post.id, [])]
            level += node.children
    for node in reply_tree_nodes(nodes):
        node.more = max(0, (node.post.reply_count or 0) - len(node.children))
    return nodes


def reply_tree_nodes(nodes: list[ReplyNode]):
    """Every node of the tree, parents before their children."""
    for node in nodes:
        yield node
        yield from reply_tree_nodes(node.children)
