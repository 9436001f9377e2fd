"""Finished images (docs/media.md §5). The bytes live in storage (sns/media/storage.py),
which stays the source of truth for listings and quotas as in the original; this row
remembers the pixel size so rendered Markdown can give <img> its width and height."""

from __future__ import annotations

from django.db import models


class MediaImage(models.Model):
    key = models.CharField(max_length=255, primary_key=True)  # "<user>/masters/..."
    owner = models.ForeignKey("sns.User", on_delete=models.CASCADE, related_name="+")
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    size = models.PositiveBigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return self.key


class MediaTrack(models.Model):
    """A finished track (docs/media.md §9): storage holds the file and its preview and
    stays the source of truth for lists and quotas; this row keeps what a page needs to
    draw the track without reading storage (bounds, length, a short line)."""

    preview_key = models.CharField(max_length=255, primary_key=True)  # "<user>/previews/..."
    master_key = models.CharField(max_length=255, unique=True)
    # Unique: of two finalizes of one upload racing, only one makes a track.
    staging_key = models.CharField(max_length=255, unique=True)
    owner = models.ForeignKey("sns.User", on_delete=models.CASCADE, related_name="+")
    title = models.CharField(max_length=200, blank=True, default="")
    min_lon = models.FloatField()
    min_lat = models.FloatField()
    max_lon = models.FloatField()
    max_lat = models.FloatField()
    distance_m = models.FloatField()
    point_count = models.PositiveIntegerField()
    lines = models.JSONField()  # [[[lon, lat], ...], ...], at most STGY_MAP_LINE_POINTS positions
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return self.preview_key
