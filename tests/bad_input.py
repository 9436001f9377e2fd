"""What the bad-input tables of the API and the pages share: the tables a refused
request must leave as they were."""

from __future__ import annotations

from django.db import connection

from agents.models import Interest, PeerImpression, PostImpression, PostSummary
from sns.models import (
    AgreementTerm, Block, Bookmark, Follow, Like, MediaImage, Notification, Post, PostTag, Quote, Repost, User,
)
from sns.models.accounts import EmailVerification
from sns.models.publication import PostPubView, PubConfig
from sns.models.mutes import Mute, MutedWord
from sns.models.tokens import AccessToken
from sns.models.messages import AiBoundaries, AiStop, Conversation, ConversationMember, Message
from sns.models.reports import Report

SOCIAL_TABLES = [
    User, Post, PostTag, Like, Follow, Block, Notification, AgreementTerm,
    Interest, PeerImpression, PostImpression, PostSummary,
    Conversation, ConversationMember, Message, Report, AiBoundaries, AiStop, MediaImage,
    EmailVerification, PubConfig, PostPubView, Repost, Quote, Bookmark, Mute, MutedWord,
    AccessToken,
]


def row_counts() -> dict[str, int]:
    """Every table's row count, in one statement: taken twice per refused request, the
    27 separate counts were a good part of the bad-input tests' time."""
    quote = connection.ops.quote_name
    tables = [quote(model._meta.db_table) for model in SOCIAL_TABLES]
    counts = ", ".join(f"(SELECT COUNT(*) FROM {table})" for table in tables)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {counts}")
        row = cursor.fetchone()
    return {model.__name__: count for model, count in zip(SOCIAL_TABLES, row, strict=True)}
