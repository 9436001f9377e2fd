"""Template helpers of the message pages (`{% load stgy_messages %}`)."""

from __future__ import annotations

from django import template

from sns.selectors import messages as selectors_messages
from sns.core.ids import id_to_datetime

register = template.Library()


@register.simple_tag
def unread_messages(user) -> int:
    """Unread messages in the inbox, for the header (requests are announced by a
    notification instead, so a stranger cannot light up every page)."""
    if user is None or not user.is_authenticated:
        return 0
    return selectors_messages.messages_unread_counts(user.id)["inbox"]


@register.filter
def dm_time(message_id):
    """When the message with this id was sent (ids carry their creation time)."""
    return id_to_datetime(int(message_id)) if message_id else None
