"""What the bad-input tables of the API and the pages share: the tables a refused
request must leave as they were."""

from __future__ import annotations

from agents.models import Interest, PeerImpression, PostImpression, PostSummary
from sns.models import (
    AgreementTerm, Block, Bookmark, Follow, Like, MediaImage, Notification, Post, PostTag, Quote, Repost, User,
)
from sns.models_accounts import EmailVerification
from sns.models_publication import PostPubView, PubConfig
from sns.models_mutes import Mute, MutedWord
from sns.models_messages import (
    AiBoundaries,
    AiStop,
    Conversation,
    ConversationMember,
    Message,
)
from sns.models_reports import Report

SOCIAL_TABLES = [
    User, Post, PostTag, Like, Follow, Block, Notification, AgreementTerm,
    Interest, PeerImpression, PostImpression, PostSummary,
    Conversation, ConversationMember, Message, Report, AiBoundaries, AiStop, MediaImage,
    EmailVerification, PubConfig, PostPubView, Repost, Quote, Bookmark, Mute, MutedWord,
]


def row_counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in SOCIAL_TABLES}
