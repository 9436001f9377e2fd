"""The post JSON (docs/api.md §3) from the rows of sns/selectors/post_reads/tuples.py: the
same fields, values and order as post_json / post_detail_json give for model
instances, read straight off the tuple (its column order is tuples.COLUMNS)."""

from __future__ import annotations

from sns.core.ids import id_to_datetime as _created_at, id_to_hex
from sns.core.isotime import iso
from sns.reads.access import owner_refuses_facts


def post_row_json(row: tuple, focus_user_id: int | None = None) -> dict:
    (post_id, owner_id, reply_to, allow_likes, allow_replies, published_at, updated_at, owner_nickname,
     owner_locale, parent_owner_id, parent_owner_nickname, like_count, reply_count, tags, snippet, locale) = row[:16]
    data = {
        "id": id_to_hex(post_id),
        "ownedBy": id_to_hex(owner_id),
        "replyTo": id_to_hex(reply_to) if reply_to is not None else None,
        "allowLikes": allow_likes,
        "allowReplies": allow_replies,
        "createdAt": iso(_created_at(post_id)),
        "publishedAt": iso(published_at),
        "updatedAt": iso(updated_at),
        "ownerNickname": owner_nickname,
        "ownerLocale": owner_locale,
        "replyToOwnerId": id_to_hex(parent_owner_id) if parent_owner_id is not None else None,
        "replyToOwnerNickname": parent_owner_nickname,
        "countLikes": like_count,
        "countReplies": reply_count,
        "tags": tags.split("\n") if tags else [],
        "snippet": snippet,
        "locale": locale,
    }
    if focus_user_id is not None:
        liked, replied, owner_blocks, block_strangers, owner_follows = row[16:21]
        data["isLikedByFocusUser"] = bool(liked)
        data["isRepliedByFocusUser"] = bool(replied)
        data["isBlockingFocusUser"] = owner_refuses_facts(
            owner_id, block_strangers, focus_user_id, blocks=owner_blocks, follows_back=owner_follows
        )
    return data


def post_row_detail_json(row: tuple, focus_user_id: int | None = None) -> dict:
    data = post_row_json(row, focus_user_id)
    content, older_id, newer_id = row[-3:]
    data["content"] = content
    data["olderPostId"] = id_to_hex(older_id) if older_id is not None else None
    data["newerPostId"] = id_to_hex(newer_id) if newer_id is not None else None
    return data
