"""Django admin for the social network.

Admin edits go through the rulebook like every other write: the change form calls
`sns.services` while it validates, so a refusal (a taken email, an unknown time zone)
shows as a form error, counters stay right and follow-on work (summaries) runs.
Rows whose direct editing would break counters or invariants — likes, follows,
blocks, notifications — are read-only here.
"""

from __future__ import annotations

import json

from django import forms
from django.contrib import admin

from .. import services
from .base import ReadOnlyAdmin
from ..services import agreements
from ..services.sessions import session_logged_in_at
from ..core.errors import DomainError
from ..core.ids import id_to_hex
from ..models import AgreementTerm, Block, Follow, Like, Notification, Post, User


class ServiceForm(forms.ModelForm):
    """A model form whose save is a service call made during validation. `actor` is
    set per request by `ServiceAdmin.get_form`; `apply()` returns the saved object."""

    actor = None
    # When the actor's session logged in: the proof an admin changing their own
    # password here gives (sns/reads/access.py access_owner_proof).
    logged_in_at = None

    def apply(self):  # pragma: no cover - overridden
        raise NotImplementedError

    def _post_clean(self):
        super()._post_clean()
        if self.errors:
            return
        try:
            self.instance = self.apply()
        except DomainError as exc:
            self.add_error(None, exc.message)


class ServiceAdmin(admin.ModelAdmin):
    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        # get_form builds a new class per request, so this does not leak between requests.
        form.actor = request.user
        form.logged_in_at = session_logged_in_at(request.session)
        return form

    def save_model(self, request, obj, form, change):
        """Saved already, by the service call in the form's validation."""

    def get_deleted_objects(self, objs, request):
        # The delete service removes dependent rows (likes, follows...) and fixes the
        # counters; the read-only admins of those rows must not veto it.
        deleted, counts, _perms_needed, protected = super().get_deleted_objects(objs, request)
        return deleted, counts, set(), protected


# ------------------------------------------------------------------------- users


class UserKindFilter(admin.SimpleListFilter):
    title = "kind"
    parameter_name = "kind"

    def lookups(self, request, model_admin):
        return [("human", "Human"), ("ai", "AI")]

    def queryset(self, request, queryset):
        if self.value() == "human":
            return queryset.filter(ai_model__isnull=True)
        if self.value() == "ai":
            return queryset.filter(ai_model__isnull=False)
        return queryset


_USER_SERVICE_FIELDS = {
    "email": "email",
    "nickname": "nickname",
    "introduction": "introduction",
    "avatar": "avatar",
    "locale": "locale",
    "timezone": "timezone_name",
    "block_strangers": "block_strangers",
    "ai_model": "ai_model",
    "ai_personality": "ai_personality",
    "is_admin": "is_admin",
    "is_frozen": "is_frozen",
}


class UserAdminForm(ServiceForm):
    new_password = forms.CharField(
        label="Password",
        required=False,
        strip=False,
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "new-password"}),
        help_text="Required for a new user; leave empty to keep the current password.",
    )

    class Meta:
        model = User
        fields = tuple(_USER_SERVICE_FIELDS)
        widgets = {
            "ai_personality": forms.Textarea(attrs={"rows": 24, "cols": 100}),
            "introduction": forms.Textarea(attrs={"rows": 8, "cols": 100}),
        }

    def apply(self):
        data = self.cleaned_data
        password = data.get("new_password") or ""
        if self.instance._state.adding:
            return services.user_create(
                self.actor,
                user_id=self.instance.id,
                email=data["email"],
                nickname=data["nickname"],
                password=password,
                is_admin=data["is_admin"],
                block_strangers=data["block_strangers"],
                locale=data["locale"],
                timezone_name=data["timezone"],
                introduction=data["introduction"],
                avatar=data["avatar"],
                ai_model=data["ai_model"],
                ai_personality=data["ai_personality"],
            )
        changed = {
            _USER_SERVICE_FIELDS[name]: data[name]
            for name in self.changed_data
            if name in _USER_SERVICE_FIELDS
        }
        user = self.instance
        if changed:
            user = services.user_update(self.actor, self.instance.id, **changed)
        if password:
            services.user_set_password(
                self.actor, self.instance.id, password, logged_in_at=self.logged_in_at
            )
        return user


@admin.register(User)
class UserAdmin(ServiceAdmin):
    form = UserAdminForm
    list_display = (
        "nickname",
        "email",
        "ai_model",
        "is_admin",
        "is_frozen",
        "block_strangers",
        "post_count",
        "follower_count",
        "followee_count",
        "created",
    )
    list_filter = (UserKindFilter, "ai_model", "is_frozen", "is_admin", "block_strangers")
    search_fields = ("nickname", "email", "introduction")
    ordering = ("-id",)
    readonly_fields = (
        "hex",
        "created",
        "updated_at",
        "post_count",
        "follower_count",
        "followee_count",
        "last_login",
    )
    fieldsets = (
        (None, {"fields": ("hex", "email", "nickname", "new_password", "introduction", "avatar")}),
        ("Locale", {"fields": ("locale", "timezone")}),
        ("AI user", {"fields": ("ai_model", "ai_personality")}),
        ("Status", {"fields": ("is_admin", "is_frozen", "block_strangers")}),
        (
            "Counts and times",
            {
                "fields": (
                    "post_count",
                    "follower_count",
                    "followee_count",
                    "created",
                    "updated_at",
                    "last_login",
                )
            },
        ),
    )

    @admin.display(description="id")
    def hex(self, obj):
        return obj.hex_id if obj.pk else ""

    @admin.display(description="created")
    def created(self, obj):
        return obj.created_at if obj.pk else None

    def delete_model(self, request, obj):
        services.user_delete(request.user, obj.id)

    def delete_queryset(self, request, queryset):
        for user_id in queryset.values_list("id", flat=True):
            services.user_delete(request.user, user_id)


# ------------------------------------------------------------------------- posts


class PostAdminForm(ServiceForm):
    tags = forms.CharField(required=False, help_text="Comma-separated author tags.")

    class Meta:
        model = Post
        fields = ("content", "locale", "allow_likes", "allow_replies", "published_at")
        widgets = {"content": forms.Textarea(attrs={"rows": 16, "cols": 100})}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["tags"].initial = ", ".join(
                self.instance.tags.order_by("name").values_list("name", flat=True)
            )

    def apply(self):
        data = self.cleaned_data
        changed = {name: data[name] for name in self.changed_data if name in self.Meta.fields}
        if "tags" in self.changed_data:
            changed["tags"] = [t for t in (data["tags"] or "").split(",") if t.strip()]
        if "locale" in changed:
            changed["locale"] = changed["locale"] or None
        if not changed:
            return self.instance
        return services.post_update(self.actor, self.instance.id, **changed)


class ReplyFilter(admin.SimpleListFilter):
    title = "kind"
    parameter_name = "kind"

    def lookups(self, request, model_admin):
        return [("root", "Root posts"), ("reply", "Replies")]

    def queryset(self, request, queryset):
        if self.value() == "root":
            return queryset.filter(reply_to__isnull=True)
        if self.value() == "reply":
            return queryset.filter(reply_to__isnull=False)
        return queryset


@admin.register(Post)
class PostAdmin(ServiceAdmin):
    form = PostAdminForm
    list_display = (
        "hex",
        "owner",
        "short",
        "like_count",
        "reply_count",
        "allow_likes",
        "allow_replies",
        "created",
    )
    list_select_related = ("owner",)
    list_filter = (ReplyFilter, "allow_likes", "allow_replies", "owner__ai_model")
    search_fields = ("content", "owner__nickname", "tags__name")
    ordering = ("-id",)
    readonly_fields = (
        "hex",
        "owner",
        "reply_to_hex",
        "created",
        "updated_at",
        "like_count",
        "reply_count",
        "idempotency_key",
    )
    fields = (
        "hex",
        "owner",
        "reply_to_hex",
        "content",
        "tags",
        "locale",
        "allow_likes",
        "allow_replies",
        "published_at",
        "created",
        "updated_at",
        "like_count",
        "reply_count",
        "idempotency_key",
    )
    show_full_result_count = False

    def has_add_permission(self, request):
        return False

    @admin.display(description="id", ordering="id")
    def hex(self, obj):
        return obj.hex_id

    @admin.display(description="reply to")
    def reply_to_hex(self, obj):
        return id_to_hex(obj.reply_to) if obj.reply_to is not None else "-"

    @admin.display(description="created")
    def created(self, obj):
        return obj.created_at

    @admin.display(description="content")
    def short(self, obj):
        return obj.snippet_text[:80]

    def delete_model(self, request, obj):
        services.post_delete(request.user, obj.id)

    def delete_queryset(self, request, queryset):
        for post_id in queryset.values_list("id", flat=True):
            services.post_delete(request.user, post_id)


# ------------------------------------------------------- relations and notifications


@admin.register(Like)
class LikeAdmin(ReadOnlyAdmin):
    list_display = ("user", "post", "created_at")
    list_select_related = ("user", "post")
    search_fields = ("user__nickname", "post__content")
    date_hierarchy = "created_at"
    raw_id_fields = ("user", "post")


@admin.register(Follow)
class FollowAdmin(ReadOnlyAdmin):
    list_display = ("follower", "followee", "created_at")
    list_select_related = ("follower", "followee")
    list_filter = ("follower__ai_model",)
    search_fields = ("follower__nickname", "followee__nickname")
    date_hierarchy = "created_at"
    raw_id_fields = ("follower", "followee")


@admin.register(Block)
class BlockAdmin(ReadOnlyAdmin):
    list_display = ("blocker", "blockee", "created_at")
    list_select_related = ("blocker", "blockee")
    search_fields = ("blocker__nickname", "blockee__nickname")
    date_hierarchy = "created_at"
    raw_id_fields = ("blocker", "blockee")


@admin.register(Notification)
class NotificationAdmin(ReadOnlyAdmin):
    list_display = ("user", "slot", "term", "is_read", "updated_at")
    list_select_related = ("user",)
    list_filter = ("is_read",)
    search_fields = ("user__nickname", "slot")
    date_hierarchy = "updated_at"
    raw_id_fields = ("user",)


class AgreementTermForm(ServiceForm):
    class Meta:
        model = AgreementTerm
        fields = ("contents",)
        help_texts = {"contents": 'A JSON array of {"locale": ..., "text": ...}, "en" included.'}

    def apply(self):
        try:
            contents = json.loads(self.cleaned_data["contents"])
        except ValueError:
            contents = None
        return agreements.agreement_term_put(self.actor, self.instance.id, contents)


@admin.register(AgreementTerm)
class AgreementTermAdmin(ServiceAdmin):
    """Written through the rulebook, so a version saved here is validated as the API's."""

    form = AgreementTermForm
    list_display = ("__str__",)

    def delete_model(self, request, obj):
        agreements.agreement_term_delete(request.user, obj.id)
