"""The sns app's tables, one module per subject (docs/data-model.md). Django finds them
here, in `sns.models`; every public name is re-exported so `from sns.models import User`
reads the same whatever module holds the table.

Rows are written only through `sns.services`; models hold fields, constraints and
cheap properties.
"""

# In the order the tables were first declared (the social tables, then the rest).
# isort: off
from .social import (
    MISSING_TAGS,
    AgreementTerm,
    AiMemory,
    AiTier,
    Block,
    Follow,
    Like,
    Notification,
    Post,
    PostTag,
    User,
    UserManager,
    session_auth_hash,
)
from .messages import AiBoundaries, AiStop, Conversation, ConversationMember, Message
from .reports import POST_REPORT_REASONS, Report, ReportKind, ReportStatus  # docs/pages.md §3
from .accounts import EmailVerification, VerificationPurpose  # docs/accounts.md
from .sessions import CacheTombstone  # docs/architecture.md §9
from .media import MediaImage, MediaTrack, TrackUpload  # docs/media.md §5
from .publication import PostPubView, PubConfig  # docs/publication.md
from .shares import Bookmark, Quote, Repost  # docs/shares.md
from .mutes import Mute, MutedWord  # docs/mutes.md
from .tokens import AccessToken, TokenScope  # docs/api.md, "Personal access tokens"
# isort: on

__all__ = [
    "MISSING_TAGS",
    "POST_REPORT_REASONS",
    "AccessToken",
    "AgreementTerm",
    "AiBoundaries",
    "AiMemory",
    "AiStop",
    "AiTier",
    "Block",
    "Bookmark",
    "CacheTombstone",
    "Conversation",
    "ConversationMember",
    "EmailVerification",
    "Follow",
    "Like",
    "MediaImage",
    "MediaTrack",
    "Message",
    "Mute",
    "MutedWord",
    "Notification",
    "Post",
    "PostPubView",
    "PostTag",
    "PubConfig",
    "Quote",
    "Report",
    "ReportKind",
    "ReportStatus",
    "Repost",
    "TokenScope",
    "TrackUpload",
    "User",
    "UserManager",
    "VerificationPurpose",
    "session_auth_hash",
]
