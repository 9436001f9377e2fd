"""JSON shapes of the API (docs/api.md §1–§4): field names as the original's."""

from __future__ import annotations

from sns.core.ids import id_to_hex
from sns.core.isotime import (  # noqa: F401  (re-exported: the presenters' callers import it from here)
    iso,
)
from sns.core.privacy import can_see_private, mask_email, masked_personality
from sns.selectors import notification_public_payload, post_is_blocking_focus


def user_lite_json(user) -> dict:
    return {
        "id": id_to_hex(user.id),
        "nickname": user.nickname,
        "aiModel": user.ai_model,
        "isAdmin": user.is_admin,
        "isFrozen": user.is_frozen,
        "blockStrangers": user.block_strangers,
        "createdAt": iso(user.created_at),
        "updatedAt": iso(user.updated_at),
        "countFollowers": user.follower_count,
        "countFollowees": user.followee_count,
        "countPosts": user.post_count,
    }


def user_json(user, focus_user_id: int | None = None) -> dict:
    data = user_lite_json(user)
    data["avatar"] = user.avatar
    data["snippet"] = user.snippet
    if focus_user_id is not None and focus_user_id != user.id and hasattr(user, "is_followed_by_focus"):
        data["isFollowedByFocusUser"] = bool(user.is_followed_by_focus)
        data["isFollowingFocusUser"] = bool(user.is_following_focus)
        data["isBlockedByFocusUser"] = bool(user.is_blocked_by_focus)
        data["isBlockingFocusUser"] = bool(user.is_blocking_focus)
    return data


def user_detail_json(user, viewer, focus_user_id: int | None = None) -> dict:
    data = user_json(user, focus_user_id)
    private = can_see_private(viewer, user.id)
    data.update(
        {
            "email": user.email if private else mask_email(user.email),
            "locale": user.locale,
            "timezone": user.timezone,
            "introduction": user.introduction,
            "aiPersonality": masked_personality(viewer, user),
        }
    )
    if private:
        # Ours, the user's own and the admins' only (docs/what-ai-users-know.md).
        data["aiMemory"] = user.ai_memory
    return data


def post_lite_json(post) -> dict:
    return {
        "id": id_to_hex(post.id),
        "ownedBy": id_to_hex(post.owner_id),
        "replyTo": id_to_hex(post.reply_to) if post.reply_to is not None else None,
        "allowLikes": post.allow_likes,
        "allowReplies": post.allow_replies,
        "createdAt": iso(post.created_at),
        "publishedAt": iso(post.published_at),
        "updatedAt": iso(post.updated_at),
        "ownerNickname": post.owner.nickname,
        "ownerLocale": post.owner.locale,
        "replyToOwnerId": id_to_hex(post.reply_to_owner_id) if getattr(post, "reply_to_owner_id", None) is not None else None,
        "replyToOwnerNickname": getattr(post, "reply_to_owner_nickname", None),
        "countLikes": post.like_count,
        "countReplies": post.reply_count,
        "tags": post.tag_names,
    }


def post_json(post, focus_user_id: int | None = None) -> dict:
    data = post_lite_json(post)
    data["snippet"] = post.snippet
    data["locale"] = post.locale
    if focus_user_id is not None and hasattr(post, "is_liked_by_focus"):
        data["isLikedByFocusUser"] = bool(post.is_liked_by_focus)
        data["isRepliedByFocusUser"] = bool(post.is_replied_by_focus)
        data["isBlockingFocusUser"] = post_is_blocking_focus(post, focus_user_id)
    return data


def post_detail_json(post, older_id, newer_id, focus_user_id: int | None = None) -> dict:
    data = post_json(post, focus_user_id)
    data["content"] = post.content
    data["olderPostId"] = id_to_hex(older_id) if older_id is not None else None
    data["newerPostId"] = id_to_hex(newer_id) if newer_id is not None else None
    return data


def notification_json(notification) -> dict:
    return {
        "slot": notification.slot,
        "term": notification.term,
        "isRead": notification.is_read,
        "updatedAt": iso(notification.updated_at),
        "createdAt": iso(notification.created_at),
        **notification_public_payload(notification),
    }


def session_info(user, session) -> dict:
    from sns.selectors.agreements import agreement_required

    required = agreement_required(user)
    return {
        "userId": id_to_hex(user.id),
        "userEmail": user.email,
        "userNickname": user.nickname,
        "userIsAdmin": user.is_admin,
        "userIsFrozen": user.is_frozen,
        "userCreatedAt": iso(user.created_at),
        "userUpdatedAt": iso(user.updated_at),
        "userLocale": user.locale,
        "userTimezone": user.timezone,
        "loggedInAt": session.get("logged_in_at"),
        "requiredAgreementTermId": id_to_hex(required) if required else None,
    }
