"""Writing the demo community (`seed_data`) into the database.

Seeding is idempotent: the presence of any user whose email is in the demo domain means
the community was seeded before (and may since have been changed by the people and
agents living in it), so nothing is written again. Everything else happens in one
transaction, and posts and follows go through the rulebook services, exactly as if the
cast had written them by hand; the summaries of the new posts are enqueued after commit.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

from sns import services
from sns.mdtree import make_snippet
from sns.models import User

from . import people_data, seed_data
from .handbook import seed_handbook

DEMO_EMAIL_SUFFIX = "@" + seed_data.DEMO_EMAIL_DOMAIN
DEMO_PASSWORD = "stgy-demo"
DEMO_HUMAN_EMAIL = seed_data.HUMANS[0]["email"]


def demo_community_exists() -> bool:
    return User.objects.filter(email__endswith=DEMO_EMAIL_SUFFIX).exists()


def seed_demo_community(*, stdout=None) -> dict:
    """Create the demo humans, AI users, posts, replies and follows once.

    Returns {"created": False} when a demo community is already there, otherwise
    {"created": True, "humans": n, "ai_users": n, "posts": n, "follows": n}.
    `stdout` is anything with a `write(str)` method, e.g. a management command's stdout.
    """
    if demo_community_exists():
        _say(stdout, "The demo community is already there; nothing to do.")
        return {"created": False}
    try:
        with transaction.atomic():
            users = _create_users()
            posts = _create_posts(users)
            follows = _create_follows(users)
            handbook = seed_handbook()
    except IntegrityError:
        # Another process seeded concurrently and its users won the unique emails.
        if demo_community_exists():
            _say(stdout, "The demo community was seeded concurrently; nothing to do.")
            return {"created": False}
        raise
    result = {
        "created": True,
        "humans": len(seed_data.HUMANS),
        "ai_users": len(seed_data.AI_USERS),
        "posts": posts,
        "follows": follows,
        "handbook": handbook,
    }
    _say(
        stdout,
        "Seeded the demo community: {humans} humans, {ai_users} AI users, {posts} posts, "
        "{follows} follows, a handbook of {handbook} knowledge posts. Log in as {email} with password {password!r}.".format(
            email=DEMO_HUMAN_EMAIL, password=DEMO_PASSWORD, **result
        ),
    )
    return result


def _create_user(spec: dict, password: str | None, **extra) -> User:
    return User.objects.create_user(
        email=spec["email"],
        password=password,
        nickname=spec["nickname"],
        locale=spec["locale"],
        timezone=spec["timezone"],
        introduction=spec["introduction"],
        snippet=make_snippet(spec["introduction"]),
        **extra,
    )


def _create_users() -> dict[str, User]:
    users: dict[str, User] = {}
    for spec in seed_data.HUMANS:
        users[spec["nickname"]] = _create_user(spec, DEMO_PASSWORD)
    for spec in seed_data.AI_USERS:
        user = _create_user(
            spec, None, ai_model=spec["ai_model"], ai_personality=spec["ai_personality"]
        )
        # AI users never log in: their password is a random unusable marker.
        user.set_unusable_password()
        user.save(update_fields=["password"])
        users[spec["nickname"]] = user
    return users


def _create_posts(users: dict[str, User]) -> int:
    """Posts in list order, so every parent exists before its replies. No author has
    more than a handful of posts, far below the hourly post throttle."""
    post_ids: list[int] = []
    now = timezone.now()
    for index, spec in enumerate(seed_data.POSTS):
        parent = spec.get("reply_to")
        post = services.post_create(
            users[spec["author"]],
            content=spec["content"],
            tags=list(spec["tags"]),
            locale=spec.get("locale"),
            reply_to=post_ids[parent] if parent is not None else None,
            # A few posts published to the web: the front page of a visitor who is not
            # logged in shows them (docs/publication.md).
            published_at=now if index in people_data.PUBLISHED_SEED_POSTS else None,
        )
        post_ids.append(post.id)
    return len(post_ids)


def _create_follows(users: dict[str, User]) -> int:
    for follower, followee in seed_data.FOLLOWS:
        services.follow_add(users[follower], users[followee].id)
    return len(seed_data.FOLLOWS)


def _say(stdout, message: str) -> None:
    if stdout is not None:
        stdout.write(message + "\n")
