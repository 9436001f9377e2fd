"""Accounts, posts and the social graph: users, posts and tags, likes, follows, blocks,
notifications, agreement terms (docs/data-model.md §1–§3).

Rows are written only through `sns.services`; models hold fields, constraints and
cheap properties.
"""

from __future__ import annotations

import json

from django.contrib.auth.base_user import AbstractBaseUser, BaseUserManager
from django.db import models
from django.utils.crypto import salted_hmac
from django.db.models import Q

from ..core.ids import HexIdentified, IdDated, id_to_hex, new_id
from ..mdtree import make_snippet, snippet_text


class AiTier(models.TextChoices):
    ADVANCED = "advanced", "advanced"
    BALANCED = "balanced", "balanced"
    BASIC = "basic", "basic"


class AiMemory(models.TextChoices):
    """Whether AI users may keep memory of a person (docs/what-ai-users-know.md):
    "none" leaves them read markers only, no impression and no relationship."""

    ALLOWED = "allowed", "allowed"
    NONE = "none", "none"


class UserManager(BaseUserManager):
    use_in_migrations = True

    def create_user(self, email, password=None, **fields):
        if not email:
            raise ValueError("email is required")
        fields.setdefault("nickname", email.split("@")[0][:50])
        fields.setdefault("snippet", make_snippet(fields.get("introduction", "")))
        user = self.model(email=self.normalize_email(email).lower(), **fields)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_superuser(self, email, password=None, **fields):
        fields["is_admin"] = True
        return self.create_user(email, password, **fields)


def session_auth_hash(password: str, is_admin: bool, is_frozen: bool, *, secret=None) -> str:
    """The hash every session of a user carries; folding the admin and frozen flags in
    means that changing either ends every session of the user, as the original does."""
    return salted_hmac(
        "sns.User.session", f"{password}|{is_admin}|{is_frozen}", secret=secret, algorithm="sha256"
    ).hexdigest()


class User(IdDated, AbstractBaseUser):
    id = models.BigIntegerField(primary_key=True, default=new_id, editable=False)
    email = models.EmailField(max_length=100, unique=True)
    nickname = models.CharField(max_length=50)
    introduction = models.TextField(blank=True, default="")
    # The original's serialised snippet tree (sns/mdtree, docs/data-model.md "Snippets").
    snippet = models.TextField(blank=True, default="")
    avatar = models.CharField(max_length=100, null=True, blank=True)
    locale = models.CharField(max_length=50, default="en-US")
    timezone = models.CharField(max_length=50, default="UTC")
    ai_model = models.CharField(max_length=50, choices=AiTier.choices, null=True, blank=True)
    ai_personality = models.TextField(null=True, blank=True)
    is_admin = models.BooleanField(default=False)
    is_frozen = models.BooleanField(default=False)
    block_strangers = models.BooleanField(default=False)
    ai_memory = models.CharField(max_length=10, choices=AiMemory.choices, default=AiMemory.ALLOWED)
    # The agreement term (its id) the user last accepted; null = none yet.
    agreement_term_id = models.BigIntegerField(null=True, blank=True)
    updated_at = models.DateTimeField(null=True, blank=True)
    follower_count = models.IntegerField(default=0)
    followee_count = models.IntegerField(default=0)
    post_count = models.IntegerField(default=0)

    objects = UserManager()

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS = ["nickname"]

    class Meta:
        indexes = [
            models.Index(fields=["nickname", "id"], name="user_nickname_idx"),
            models.Index(fields=["id"], condition=Q(ai_model__isnull=False), name="user_ai_idx"),
            # The few users the visibility rule may hide someone from (frozen, or refusing
            # strangers): PostgreSQL reads the rule's owner check as one hashed set of them,
            # which without this index was a scan of every user per timeline read
            # (13 ms at 20,000 users, docs/architecture.md "Visibility").
            models.Index(
                fields=["id"], condition=Q(is_frozen=True) | Q(block_strangers=True), name="user_refusing_idx"
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(ai_model__isnull=True) | Q(ai_model__in=AiTier.values),
                name="user_ai_model_tier",
            ),
            models.CheckConstraint(condition=Q(ai_memory__in=AiMemory.values), name="user_ai_memory_choice"),
        ]

    def __str__(self):
        return f"{self.nickname} <{self.email}>"

    @property
    def is_ai(self) -> bool:
        return self.ai_model is not None

    @property
    def snippet_text(self) -> str:
        """The snippet as plain text, for our own pages."""
        return snippet_text(self.snippet)

    # Django admin integration: admins are staff and superusers.
    @property
    def is_staff(self) -> bool:
        return self.is_admin

    @property
    def is_superuser(self) -> bool:
        return self.is_admin

    def _get_session_auth_hash(self, secret=None):
        return session_auth_hash(self.password, self.is_admin, self.is_frozen, secret=secret)

    def refresh_from_db(self, using=None, fields=None, from_queryset=None):
        # A session's user is built from the session record with most columns deferred
        # (sns/auth/session.py); the first deferred column a view reads loads all the
        # others in the same statement, not one statement per column.
        if fields is not None and getattr(self, "load_rest_together", False):
            deferred = self.get_deferred_fields()
            if deferred and set(fields) <= deferred:
                fields = sorted(deferred)
        super().refresh_from_db(using=using, fields=fields, from_queryset=from_queryset)

    def has_perm(self, perm, obj=None) -> bool:
        return self.is_admin

    def has_perms(self, perm_list, obj=None) -> bool:
        return self.is_admin

    def has_module_perms(self, app_label) -> bool:
        return self.is_admin


MISSING_TAGS = object()


class Post(IdDated, models.Model):
    id = models.BigIntegerField(primary_key=True, default=new_id, editable=False)
    # db_index=False on foreign keys whose lookups a composite index below already
    # serves: a single-column twin made the planner read an author's whole history
    # (bitmap scan + sort) for "newest N posts", and costs every write.
    owner = models.ForeignKey(User, on_delete=models.CASCADE, related_name="posts", db_column="owned_by", db_index=False)
    # No foreign key, as in the original: deleting a parent leaves its replies in place.
    reply_to = models.BigIntegerField(null=True, blank=True)
    content = models.TextField()
    # The original's serialised snippet tree (sns/mdtree, docs/data-model.md "Snippets").
    snippet = models.TextField(blank=True, default="")
    locale = models.CharField(max_length=50, null=True, blank=True)
    allow_likes = models.BooleanField(default=True)
    allow_replies = models.BooleanField(default=True)
    published_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(null=True, blank=True)
    like_count = models.IntegerField(default=0)
    reply_count = models.IntegerField(default=0)
    # Set on posts an AI cycle writes: "<run id>:<slot>", so a redelivered stage
    # cannot create the same post twice.
    idempotency_key = models.CharField(max_length=100, null=True, blank=True, unique=True)

    class Meta:
        indexes = [
            models.Index(fields=["owner", "id"], name="post_owner_idx"),
            models.Index(fields=["reply_to", "id"], name="post_reply_to_idx"),
            models.Index(fields=["id"], condition=Q(reply_to__isnull=True), name="post_root_idx"),
            models.Index(
                fields=["owner", "id"], condition=Q(reply_to__isnull=True), name="post_owner_root_idx"
            ),
            # Public posts of an owner by publication time (docs/publication.md §2).
            models.Index(
                fields=["owner", "published_at", "id"],
                condition=Q(published_at__isnull=False),
                name="post_owner_published_idx",
            ),
        ]

    def __str__(self):
        return f"{id_to_hex(self.id)} by {self.owner_id}"

    @property
    def is_reply(self) -> bool:
        return self.reply_to is not None

    @property
    def snippet_text(self) -> str:
        """The snippet as plain text, for our own pages."""
        return snippet_text(self.snippet)

    @property
    def tag_names(self) -> list[str]:
        """Author tags by name, sorted: from the joined names that post_queryset reads
        with the post when it was loaded so (a tag never holds a newline: whitespace
        runs are folded to one space), else from the tags table."""
        joined = getattr(self, "tag_names_joined", MISSING_TAGS)
        if joined is MISSING_TAGS:
            return sorted(tag.name for tag in self.tags.all())
        return joined.split("\n") if joined else []

    @property
    def effective_locale(self) -> str:
        return self.locale or self.owner.locale


class PostTag(models.Model):
    post = models.ForeignKey(Post, on_delete=models.CASCADE, related_name="tags", db_index=False)
    name = models.CharField(max_length=50)
    is_root = models.BooleanField(default=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["post", "name"], name="post_tag_unique")]
        indexes = [
            models.Index(fields=["name", "post"], name="post_tag_name_idx"),
            models.Index(fields=["name", "post"], condition=Q(is_root=True), name="post_tag_root_idx"),
        ]

    def __str__(self):
        return self.name


class Like(models.Model):
    post = models.ForeignKey(Post, on_delete=models.CASCADE, related_name="likes", db_index=False)
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="likes", db_column="liked_by", db_index=False)
    created_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["post", "user"], name="like_unique")]
        indexes = [
            models.Index(fields=["post", "created_at"], name="like_post_time_idx"),
            models.Index(fields=["user", "created_at"], name="like_user_time_idx"),
        ]

    def __str__(self):
        return f"{self.user_id} likes {self.post_id}"


class Follow(models.Model):
    follower = models.ForeignKey(User, on_delete=models.CASCADE, related_name="following_rows", db_index=False)
    followee = models.ForeignKey(User, on_delete=models.CASCADE, related_name="follower_rows", db_index=False)
    created_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["follower", "followee"], name="follow_unique")]
        indexes = [
            models.Index(fields=["follower", "created_at"], name="follow_follower_time_idx"),
            models.Index(fields=["followee", "created_at"], name="follow_followee_time_idx"),
        ]

    def __str__(self):
        return f"{self.follower_id} follows {self.followee_id}"


class Block(models.Model):
    blocker = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocking_rows", db_index=False)
    blockee = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocked_by_rows", db_index=False)
    created_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["blocker", "blockee"], name="block_unique")]
        indexes = [
            models.Index(fields=["blocker", "created_at"], name="block_blocker_time_idx"),
            models.Index(fields=["blockee", "created_at"], name="block_blockee_time_idx"),
        ]

    def __str__(self):
        return f"{self.blocker_id} blocks {self.blockee_id}"


class Notification(models.Model):
    """One row per recipient, slot and day; new events fold into it (docs/api.md §4)."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="notifications", db_index=False)
    slot = models.CharField(max_length=50)
    term = models.CharField(max_length=10)
    is_read = models.BooleanField(default=False)
    payload = models.JSONField(default=dict)
    updated_at = models.DateTimeField()
    created_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "slot", "term"], name="notification_unique")
        ]
        indexes = [
            models.Index(fields=["user", "is_read", "updated_at"], name="notification_feed_idx"),
            models.Index(fields=["created_at"], name="notification_created_idx"),
        ]

    def __str__(self):
        return f"{self.user_id} {self.slot} {self.term}"


class AgreementTerm(HexIdentified, models.Model):
    """Terms of use, one row per version; the newest id is the one users must accept.
    `contents` is a JSON array of {"locale", "text"} (docs/api.md, agreement terms)."""

    id = models.BigIntegerField(primary_key=True, default=new_id, editable=False)
    contents = models.TextField()

    def __str__(self):
        return id_to_hex(self.id)

    def contents_list(self) -> list[dict]:
        try:
            data = json.loads(self.contents)
        except ValueError:
            return []
        return [c for c in data if isinstance(c, dict)] if isinstance(data, list) else []

    def text_for(self, locale: str | None) -> str:
        """The text in `locale`, else its language, else English, else the first."""
        contents = self.contents_list()
        wanted = (locale or "").replace("_", "-")
        language = wanted.split("-")[0].lower()
        for match in (
            lambda c: c.get("locale") == wanted,
            lambda c: str(c.get("locale", "")).split("-")[0].lower() == language,
            lambda c: c.get("locale") == "en",
            lambda c: True,
        ):
            for content in contents:
                if match(content):
                    return str(content.get("text", ""))
        return ""
