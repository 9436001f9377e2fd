"""What a viewer may see: the one visibility rule of the site (docs/architecture.md,
"Visibility"). Pages, the API, search, publication and every AI-user stage read
through it, so they agree on what is hidden.

A row owned by a user is hidden from `viewer` when

* the owner refuses the viewer — an explicit block, or blockStrangers without a follow
  back: the rule that also refuses writes (`sns.reads.access.owner_refuses` is its row
  form); admins are never refused;
* the owner is frozen (admins still see frozen accounts);
* the viewer blocked or muted the owner, or the row is a post containing one of the
  viewer's muted words (docs/mutes.md) — the viewer's own choices, so they hold for
  admins too.

The viewer's own rows are never hidden. For a logged-out visitor of a public site
(an AnonymousUser) only the frozen rule applies. The list selectors take
`viewer=None` to mean "no viewer to hide anything from" (the rulebook's own reads).

`owner` names the lookup path from the rows filtered to their owner's id: "owner" for
posts, "post__owner" for rows about a post, "user" for likes, "" for users themselves.
A path ending in "owner" reaches a post, whose `content` the muted words are matched
against; other paths reach no post, and muted words do not apply.

The rule is one SQL expression, correlated with the owner column, written out once
per database (`_names`): built from Exists/OuterRef expressions it cost the AI cycle
about 50 ms of query compilation per run (bench/cycle_overhead), as the ORM form of
post_queryset's facts did.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from django.db import connection
from django.db.models import BooleanField, Expression, ExpressionWrapper, F, Q, QuerySet

from ..models import Block, Follow, Post, User
from ..models.mutes import Mute, MutedWord


class _Viewable(Expression):
    """True where the row's owner (`owner_id`, a resolved column) is visible to the
    viewer, and the row's `content` (a post's, or None) has none of their muted words;
    `kind` is "anonymous", "admin" or "person"."""

    conditional = True

    def __init__(self, owner_id, content, viewer_id: int | None, kind: str):
        super().__init__(output_field=BooleanField())
        self.owner_id, self.content, self.viewer_id, self.kind = owner_id, content, viewer_id, kind

    def get_source_expressions(self):
        return [self.owner_id, self.content]

    def set_source_expressions(self, exprs):
        self.owner_id, self.content = exprs

    def as_sql(self, compiler, connection_):
        owner, owner_params = compiler.compile(self.owner_id)
        content = content_params = None
        if self.content is not None:
            content, content_params = compiler.compile(self.content)
        return _rule_sql(owner, [*owner_params], content, content_params, self.viewer_id, self.kind)


def _rule_sql(owner: str, owner_params: list, content, content_params, viewer_id, kind: str) -> tuple[str, list]:
    """The rule as SQL over the SQL of the owner's id (and of the post's content, or None)."""
    sql = _names()
    frozen = f"EXISTS (SELECT 1 FROM {sql.user} vu WHERE vu.{sql.user_id} = {owner} AND vu.{sql.frozen})"
    if kind == "anonymous":
        return f"NOT {frozen}", [*owner_params]
    # The viewer's own choices: a block, a mute, a muted word in the post.
    mine = (
        f"EXISTS (SELECT 1 FROM {sql.block} vb WHERE vb.{sql.blocker} = %s AND vb.{sql.blockee} = {owner}) "
        f"OR EXISTS (SELECT 1 FROM {sql.mute} vm WHERE vm.{sql.mute_user} = %s AND vm.{sql.mute_target} = {owner})"
    )
    params = [*owner_params, viewer_id, viewer_id, *owner_params, viewer_id, *owner_params]
    if content is not None:
        mine += (
            f" OR EXISTS (SELECT 1 FROM {sql.word} vw WHERE vw.{sql.word_user} = %s "
            f"AND {sql.position}(LOWER({content}), vw.{sql.word_text}) > 0)"
        )
        params += [viewer_id, *content_params]
    mine = f"({mine})"
    if kind == "admin":
        return f"({owner} = %s OR NOT {mine})", params
    theirs = f"EXISTS (SELECT 1 FROM {sql.block} vr WHERE vr.{sql.blocker} = {owner} AND vr.{sql.blockee} = %s)"
    # One look at the owner's row for both of its flags; the follow back only when
    # the owner blocks strangers.
    owner_row = (
        f"EXISTS (SELECT 1 FROM {sql.user} vu WHERE vu.{sql.user_id} = {owner} AND (vu.{sql.frozen} OR "
        f"(vu.{sql.strangers} AND NOT EXISTS (SELECT 1 FROM {sql.follow} vf "
        f"WHERE vf.{sql.follower} = vu.{sql.user_id} AND vf.{sql.followee} = %s))))"
    )
    params += [*owner_params, viewer_id, *owner_params, viewer_id]
    return f"({owner} = %s OR NOT ({mine} OR {theirs} OR {owner_row}))", params


@dataclass(frozen=True)
class _Names:
    user: str
    user_id: str
    frozen: str
    strangers: str
    block: str
    blocker: str
    blockee: str
    follow: str
    follower: str
    followee: str
    mute: str
    mute_user: str
    mute_target: str
    word: str
    word_user: str
    word_text: str
    position: str  # the SQL function (haystack, needle) → 1-based index or 0


@lru_cache(maxsize=1)
def _names() -> _Names:
    qn = connection.ops.quote_name

    def col(model, field: str) -> str:
        return qn(model._meta.get_field(field).column)

    return _Names(
        user=qn(User._meta.db_table), user_id=col(User, "id"), frozen=col(User, "is_frozen"),
        strangers=col(User, "block_strangers"), block=qn(Block._meta.db_table), blocker=col(Block, "blocker"),
        blockee=col(Block, "blockee"), follow=qn(Follow._meta.db_table), follower=col(Follow, "follower"),
        followee=col(Follow, "followee"), mute=qn(Mute._meta.db_table), mute_user=col(Mute, "user"),
        mute_target=col(Mute, "target"), word=qn(MutedWord._meta.db_table), word_user=col(MutedWord, "user"),
        word_text=col(MutedWord, "word"), position="STRPOS" if connection.vendor == "postgresql" else "INSTR",
    )


def viewable_q(viewer, owner: str = "owner") -> Q:
    """The rule above as a filter on rows whose owner is reached through `owner`;
    `viewer` is a User, or an AnonymousUser or None for a logged-out visitor (the
    API's public routes see no user at all)."""
    owner_id = F(f"{owner}_id" if owner else "pk")
    content = F(owner.removesuffix("owner") + "content") if owner.endswith("owner") else None
    if viewer is None or not viewer.is_authenticated:
        return Q(_Viewable(owner_id, None, None, "anonymous"))
    return Q(_Viewable(owner_id, content, viewer.id, "admin" if viewer.is_admin else "person"))


def viewable_sql(viewer, owner: str, content: str | None = None) -> tuple[str, list]:
    """The rule as a condition in hand-written SQL (the lean reads of
    sns/selectors/post_reads/): `owner` and `content` are the SQL of the row's owner id
    and, for a post, its content."""
    if viewer is None or not viewer.is_authenticated:
        return _rule_sql(owner, [], None, [], None, "anonymous")
    return _rule_sql(owner, [], content, [], viewer.id, "admin" if viewer.is_admin else "person")


def viewable_flag(viewer, owner: str = "owner") -> ExpressionWrapper:
    """The rule as a boolean annotation, for reads that keep a row count first and drop
    the hidden rows after (the newest N read, then filtered)."""
    return ExpressionWrapper(viewable_q(viewer, owner), output_field=BooleanField())


def viewable_posts(viewer, qs: QuerySet[Post] | None = None) -> QuerySet[Post]:
    """`qs` (all posts by default) without the posts hidden from `viewer`; all of them
    without a viewer (None)."""
    qs = Post.objects.all() if qs is None else qs
    return qs if viewer is None else qs.filter(viewable_q(viewer))


def post_viewable(viewer, post_id: int) -> bool:
    """Row form of the rule for one post: may `viewer` see it (and does it exist)?"""
    return viewable_posts(viewer).filter(pk=post_id).exists()


def hidden_user_ids(viewer, user_ids) -> set[int]:
    """Which of `user_ids` are hidden from `viewer` (as owners), in one query."""
    ids = {int(i) for i in user_ids if i is not None}
    if not ids:
        return set()
    return ids - set(User.objects.filter(pk__in=ids).filter(viewable_q(viewer, "")).values_list("pk", flat=True))
