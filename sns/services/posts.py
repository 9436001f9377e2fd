"""Posts and replies."""

from __future__ import annotations

import re
from functools import partial

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from ..core import throttle
from ..core.errors import Conflict, InvalidInput
from ..core.ids import parse_id
from ..core.text import normalize_content, normalize_locale, normalize_post_tags
from ..mdtree import make_snippet
from ..models import Follow, Post, PostTag, User
from ..reads import live_marks, mentions
from ..reads.access import access_post, access_writable, block_annotations, is_blocked_annotated
from ..selectors.boundaries import ai_contact_annotated, ai_contact_annotations
from . import notifications
from .hooks import post_mentioned, post_written
from .post_insert import post_insert
from .targets import reply_target

_MENTION = re.compile(r"\[@[^\]]*\]\((?:https?://[^)\s]*)?/users/(?:0x)?([0-9A-Fa-f]{1,16})\)")
_MENTION_LIMIT = 10


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _validated_content(actor: User, content) -> str:
    text = normalize_content(content)
    if not actor.is_admin and _utf16_len(text) > settings.STGY_CONTENT_LENGTH_LIMIT:
        raise InvalidInput("content is too long")
    return text


def _check_reply_target(actor: User, parent_id: int, *, lock: bool = False) -> Post:
    # The parent, its owner and the block facts in one query; with `lock`, the parent's
    # row locked by the same query (post_create's reply_once).
    parent = reply_target(actor.id, parent_id, lock=lock)
    if parent is None:
        raise InvalidInput("parent post not found")
    if is_blocked_annotated(parent, parent.owner, actor):
        raise InvalidInput("blocked by the owner")
    if not parent.allow_replies and not actor.is_admin:
        raise InvalidInput("replies are not allowed for the target post")
    return parent


def post_create(
    actor: User,
    *,
    content,
    tags,
    locale=None,
    reply_to: int | None = None,
    allow_likes: bool = True,
    allow_replies: bool = True,
    published_at=None,
    post_id: int | None = None,
    owned_by: int | None = None,
    idempotency_key: str | None = None,
    reply_once: bool = False,
) -> Post:
    """A post or reply. With `reply_once`, a reply refused (Conflict) if the owner has
    already replied to the target, unless that reply carries the same idempotency key
    (a redelivery: it is returned). The check locks the target's row first, so an AI
    user's cycle and its respond path cannot both pass it; SQLite serialises the writers
    anyway."""
    access_writable(actor)
    tag_names = normalize_post_tags(tags, settings.STGY_TAGS_NUMBER_LIMIT)
    text = _validated_content(actor, content)
    if (post_id is not None or owned_by is not None) and not actor.is_admin:
        raise InvalidInput("id setting is for admin only")
    post_locale = normalize_locale(locale) if locale else None
    owner = actor
    if owned_by is not None and owned_by != actor.id:
        owner = User.objects.filter(pk=owned_by).first()
        if owner is None:
            raise InvalidInput("owner not found")
    # A repeated idempotency key is caught by its unique constraint below (no lookup
    # before every insert); the repeat then returns the post that stands. One
    # transaction from the target's check on: with `reply_once` that check locks the
    # target, and the owner's replies are read after it (`_earlier_reply`).
    try:
        with transaction.atomic():
            parent = _check_reply_target(actor, reply_to, lock=reply_once) if reply_to is not None else None
            if owner.is_ai:
                # An AI user's text may mention only the people of the thread it writes in; any
                # other "@name" loses its "@" (docs/api.md, "Mentions by nickname").
                allowed = mentions.thread_nicknames(reply_to) if "@" in text else set()
                text = mentions.mentions_neutralise(text, allowed)
            throttle.throttle_check(actor, throttle.POSTS, size=len(text) + 50 * len(tag_names))
            if reply_once and parent is not None:
                earlier = _earlier_reply(owner, parent.id, idempotency_key)
                if earlier is not None:
                    return earlier
            post = Post(
                owner=owner,
                reply_to=reply_to,
                content=text,
                snippet=make_snippet(text),
                locale=post_locale,
                allow_likes=bool(allow_likes),
                allow_replies=bool(allow_replies),
                published_at=published_at,
                idempotency_key=idempotency_key or None,
                **({"id": post_id} if post_id is not None else {}),
            )
            post_insert(post, tag_names, parent.id if parent is not None else None)
            post_written(post, created=True)
            # Open pages of the thread learn of a reply from the cache (sns/reads/live_marks.py);
            # robust: a failure there must not turn a committed post into an error.
            transaction.on_commit(partial(live_marks.post_mark, post.id, reply=parent is not None), robust=True)
    except IntegrityError:
        if idempotency_key:
            # A redelivered or concurrent delivery of the same AI step: the first post stands.
            existing = Post.objects.filter(idempotency_key=idempotency_key).first()
            if existing is not None:
                return existing
        if post_id is not None and Post.objects.filter(pk=post_id).exists():
            raise InvalidInput("post id already exists") from None
        raise
    _notify_new_post(owner, post, parent)
    return post


def _earlier_reply(owner: User, parent_id: int, idempotency_key: str | None) -> Post | None:
    """Inside the write's transaction, the target locked by its check: the owner's
    replies to it. A statement of its own on purpose: under READ COMMITTED a statement
    that waited for the lock still reads with the snapshot it started with, and would
    miss the reply the lock holder just committed."""
    replies = list(Post.objects.filter(owner_id=owner.id, reply_to=parent_id).values_list("id", "idempotency_key"))
    if not replies:
        return None
    same = next((row_id for row_id, key in replies if idempotency_key and key == idempotency_key), None)
    if same is None:
        raise Conflict("already replied to this post")
    return Post.objects.get(pk=same)


def _notify_new_post(author: User, post: Post, parent: Post | None) -> None:
    if parent is not None:
        notifications.notify_post_event(
            recipient_id=parent.owner_id, slot=f"reply:{parent.hex_id}", actor=author, post=post
        )
    mentioned = []
    for match in _MENTION.finditer(post.content):
        try:
            user_id = parse_id(match.group(1))
        except InvalidInput:
            continue
        if user_id not in mentioned and user_id != author.id:
            mentioned.append(user_id)
        if len(mentioned) >= _MENTION_LIMIT:
            break
    notified = _notify_name_mentions(author, post, parent)
    mentioned = [user_id for user_id in mentioned if user_id not in notified]
    if not mentioned:
        return
    # Only users who follow the author hear about a mention, so a stranger cannot spam.
    followers = set(
        Follow.objects.filter(followee_id=author.id, follower_id__in=mentioned).values_list(
            "follower_id", flat=True
        )
    )
    for user_id in mentioned:
        if user_id in followers:
            notifications.notify_post_event(
                recipient_id=user_id, slot=f"mention:{post.hex_id}", actor=author, post=post
            )


def _notify_name_mentions(author: User, post: Post, parent: Post | None) -> set[int]:
    """"@Nick" mentions (sns/reads/mentions.py): the first STGY_MENTION_NOTIFY_LIMIT (5)
    mentioned users are notified (slot `name-mention:<post>`), unless they block the
    author or, for an AI author, turned AI mentions off or stopped it; the AI users among
    them are owed an answer (the post hook). One query for the lot; the ids notified."""
    names = mentions.mention_names(post.content)
    if not names:
        return set()
    candidates = User.objects.exclude(pk=author.id).annotate(
        **block_annotations(author, "pk"), **ai_contact_annotations(author, "pk", "mention")
    )
    found = mentions.mentions_resolve(names, candidates)
    recipients = [user for user in found.values() if not is_blocked_annotated(user, user, author)]
    recipients = recipients[: settings.STGY_MENTION_NOTIFY_LIMIT]
    recipients = [user for user in recipients if ai_contact_annotated(user, author, user, "mention")[0]]
    for user in recipients:
        notifications.notify_post_event(
            recipient_id=user.id, slot=f"name-mention:{post.hex_id}", actor=author, post=post
        )
    post_mentioned(post, parent, [user.id for user in recipients if user.is_ai])
    return {user.id for user in recipients}


_UNSET = object()


def post_update(
    actor: User,
    post_id: int,
    *,
    content=_UNSET,
    tags=_UNSET,
    locale=_UNSET,
    reply_to=_UNSET,
    published_at=_UNSET,
    allow_likes=_UNSET,
    allow_replies=_UNSET,
    owned_by=_UNSET,
) -> Post:
    post = access_post(actor, post_id, for_write=True)
    changed: list[str] = ["updated_at"]
    tag_names = None
    if content is not _UNSET:
        post.content = _validated_content(actor, content)
        post.snippet = make_snippet(post.content)
        changed += ["content", "snippet"]
    if tags is not _UNSET:
        tag_names = normalize_post_tags(tags, settings.STGY_TAGS_NUMBER_LIMIT)
    if locale is not _UNSET:
        post.locale = normalize_locale(locale) if locale else None
        changed.append("locale")
    old_parent = post.reply_to
    if reply_to is not _UNSET and reply_to != post.reply_to:
        if reply_to is not None:
            if reply_to == post.id:
                raise InvalidInput("a post cannot reply to itself")
            _check_reply_target(actor, reply_to)
        post.reply_to = reply_to
        changed.append("reply_to")
    if published_at is not _UNSET:
        post.published_at = published_at
        changed.append("published_at")
    if allow_likes is not _UNSET:
        post.allow_likes = bool(allow_likes)
        changed.append("allow_likes")
    if allow_replies is not _UNSET:
        post.allow_replies = bool(allow_replies)
        changed.append("allow_replies")
    new_owner_id = post.owner_id
    if owned_by is not _UNSET and owned_by != post.owner_id:
        if not actor.is_admin:
            raise InvalidInput("ownedBy setting is for admin only")
        if not User.objects.filter(pk=owned_by).exists():
            raise InvalidInput("owner not found")
        new_owner_id = owned_by
    if "content" in changed:
        throttle.throttle_check(actor, throttle.POSTS, size=len(post.content))

    with transaction.atomic():
        post.updated_at = timezone.now()
        if new_owner_id != post.owner_id:
            User.objects.filter(pk=post.owner_id).update(post_count=F("post_count") - 1)
            User.objects.filter(pk=new_owner_id).update(post_count=F("post_count") + 1)
            post.owner_id = new_owner_id
            changed.append("owner")
        post.save(update_fields=changed)
        if "reply_to" in changed:
            if old_parent is not None:
                Post.objects.filter(pk=old_parent, reply_count__gt=0).update(
                    reply_count=F("reply_count") - 1
                )
            if post.reply_to is not None:
                Post.objects.filter(pk=post.reply_to).update(reply_count=F("reply_count") + 1)
        if tag_names is not None or "reply_to" in changed:
            names = tag_names if tag_names is not None else list(post.tags.values_list("name", flat=True))
            post.tags.all().delete()
            PostTag.objects.bulk_create(
                [PostTag(post=post, name=n, is_root=post.reply_to is None) for n in names]
            )
        post_written(post, created=False)
    return access_post(actor, post.id)


def post_delete(actor: User, post_id: int) -> None:
    post = access_post(actor, post_id, for_write=True)
    with transaction.atomic():
        User.objects.filter(pk=post.owner_id, post_count__gt=0).update(post_count=F("post_count") - 1)
        if post.reply_to is not None:
            Post.objects.filter(pk=post.reply_to, reply_count__gt=0).update(
                reply_count=F("reply_count") - 1
            )
        post.delete()
