"""People live in the demo too (`bin/demo`, docs/operations.md "The embedded demo"): now
and then one of the seeded people writes, so the community is not AI users talking to
each other and the AI root posts' share of the site (agents/rate_limits.py) has people to
follow. Turns alternate: a root post from the corpus (people_data.ROOT_POSTS, in order),
then a reply to the newest root post in the person's language that they have not
answered yet (people_data.REPLIES), through the rulebook as that person.

Each write carries the idempotency key `demo-people:<n>`; their count is the turn, so a
restarted demo goes on where it stopped and two loops cannot write one turn twice.
"""

from __future__ import annotations

from django.db import IntegrityError
from django.db.models import Exists, OuterRef

from sns import services
from sns.core.errors import DomainError
from sns.models import Post, User

from . import people_data, seed_data

KEY = "demo-people:"
# The login account is the visitor's to speak for.
SPEAKERS = [h["nickname"] for h in seed_data.HUMANS[1:]]


def _lang(locale: str | None) -> str:
    return "ja" if (locale or "").lower().startswith("ja") else "en"


def people_write() -> Post | None:
    """One person's turn: a root post or a reply; None when there is nothing to answer
    or another loop took the turn."""
    turn = Post.objects.filter(idempotency_key__startswith=KEY).count()
    people = {
        u.nickname: u for u in User.objects.filter(nickname__in=SPEAKERS, ai_model__isnull=True)
    }
    if not people:
        return None
    try:
        if turn % 2 == 0:
            return _root_post(turn, people)
        return _reply(turn, people)
    except IntegrityError:
        return None  # the same turn written by another loop meanwhile
    except DomainError:
        return None  # the rulebook refused (a throttle, a frozen account): next time


def _root_post(turn: int, people: dict[str, User]) -> Post | None:
    roots = people_data.ROOT_POSTS
    nickname, locale, tags, content = roots[(turn // 2) % len(roots)]
    author = people.get(nickname)
    if author is None:
        return None
    return services.post_create(
        author, content=content, tags=tags, locale=locale, idempotency_key=f"{KEY}{turn}"
    )


def _reply(turn: int, people: dict[str, User]) -> Post | None:
    speakers = [people[n] for n in SPEAKERS if n in people]
    author = speakers[(turn // 2) % len(speakers)]
    lang = _lang(author.locale)
    answered = Post.objects.filter(owner_id=author.id, reply_to=OuterRef("pk"))
    candidates = (
        Post.objects.filter(reply_to__isnull=True, allow_replies=True)
        .exclude(owner_id=author.id)
        .exclude(Exists(answered))
        .order_by("-id")
        .values_list("id", "locale", "owner__locale")[:20]
    )
    target = next(
        (pk for pk, locale, owner_locale in candidates if _lang(locale or owner_locale) == lang),
        None,
    )
    if target is None:
        return None
    replies = people_data.REPLIES[lang]
    content = replies[(turn // 2) % len(replies)]
    return services.post_create(
        author, content=content, tags=[], reply_to=target, idempotency_key=f"{KEY}{turn}"
    )
