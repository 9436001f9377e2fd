"""The conversation under a post, a few levels deep: the replies a post page lists, their
replies, and theirs (templates/posts/_reply_tree.html). The first PER_PARENT replies of
each parent in order, read in one statement however deep (sns/selectors/post_reads/threads.py),
so a long thread costs the same queries as a short one; what is left out is counted, for
a "show more replies" link."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from ..models import Post
from .post_reads.threads import reply_descendants

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
    below = reply_descendants(viewer, replies, levels=depth - 1, per_parent=per_parent, focus_user_id=viewer.id)
    by_parent: dict[int, list[Post]] = defaultdict(list)
    for child in below:
        by_parent[child.reply_to].append(child)
    nodes = [ReplyNode(post) for post in replies]
    level = nodes
    while level:
        for node in level:
            node.children = [ReplyNode(child) for child in by_parent.get(node.post.id, ())]
        level = [child for node in level for child in node.children]
    for node in reply_tree_nodes(nodes):
        node.more = max(0, (node.post.reply_count or 0) - len(node.children))
    return nodes


def reply_tree_nodes(nodes: list[ReplyNode]):
    """Every node of the tree, parents before their children."""
    for node in nodes:
        yield node
        yield from reply_tree_nodes(node.children)
