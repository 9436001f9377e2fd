"""JSON of the public-site routes (docs/api.md §9) and their OpenAPI shapes, side by
side so the two cannot drift apart."""

from __future__ import annotations

from rest_framework import serializers

from sns.core.ids import id_to_hex
from sns.selectors.publication import digest

from .presenters import iso


def pub_config_json(config, locale: str | None = None) -> dict:
    """`locale` (the owner's) comes with GET only, and only for a user who exists."""
    data = {
        "siteName": config.site_name,
        "subtitle": config.subtitle,
        "author": config.author,
        "introduction": config.introduction,
        "designTheme": config.design_theme,
        "showServiceHeader": config.show_service_header,
        "showSiteName": config.show_site_name,
        "showPagenation": config.show_pagenation,
        "showSideProfile": config.show_side_profile,
        "showSideRecent": config.show_side_recent,
        "showSidePopular": config.show_side_popular,
    }
    if locale is not None:
        data["locale"] = locale
    return data


def pub_ranking_json(entries) -> list[dict]:
    return [{"id": id_to_hex(e.id), "pv": e.pv} for e in entries]


def pub_stats_json(stats) -> dict:
    return {
        "retentionDays": stats.retention_days,
        "totalPv": stats.total_pv,
        "dailyPv": [{"date": day.isoformat(), "pv": pv} for day, pv in stats.daily_pv],
        "entries": [
            {
                "id": id_to_hex(e.post.id),
                "publishedAt": iso(e.post.published_at),
                "digest": digest(e.post),
                "pv": e.pv,
                "dailyPv": e.daily_pv,
            }
            for e in stats.entries
        ],
    }


class PubConfigShape(serializers.Serializer):
    siteName = serializers.CharField(allow_blank=True)
    subtitle = serializers.CharField(allow_blank=True)
    author = serializers.CharField(allow_blank=True)
    introduction = serializers.CharField(allow_blank=True)
    designTheme = serializers.CharField(allow_blank=True)
    showServiceHeader = serializers.BooleanField()
    showSiteName = serializers.BooleanField()
    showPagenation = serializers.BooleanField()
    showSideProfile = serializers.BooleanField()
    showSideRecent = serializers.IntegerField()
    showSidePopular = serializers.IntegerField()
    locale = serializers.CharField(required=False, help_text="the owner's; GET only")

    class Meta:
        ref_name = "PubConfig"


class PubRankEntryShape(serializers.Serializer):
    id = serializers.CharField(help_text="16 hex digits")
    pv = serializers.IntegerField()

    class Meta:
        ref_name = "PubRankEntry"


class _DailyPv(serializers.Serializer):
    date = serializers.CharField(help_text="YYYY-MM-DD (UTC)")
    pv = serializers.IntegerField()

    class Meta:
        ref_name = "PubDailyPv"


class _StatEntry(serializers.Serializer):
    id = serializers.CharField(help_text="16 hex digits")
    publishedAt = serializers.DateTimeField()
    digest = serializers.CharField(allow_blank=True)
    pv = serializers.IntegerField()
    dailyPv = serializers.ListField(child=serializers.IntegerField())

    class Meta:
        ref_name = "PubStatEntry"


class PubStatsShape(serializers.Serializer):
    retentionDays = serializers.IntegerField()
    totalPv = serializers.IntegerField()
    dailyPv = _DailyPv(many=True)
    entries = _StatEntry(many=True)

    class Meta:
        ref_name = "PubStats"
