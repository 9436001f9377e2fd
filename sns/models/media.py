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


class TrackUpload(models.Model):
    """One finalize of a staged track file (docs/media.md §9, "Finalize"): the request
    that asked, the task that parses it (sns/services/track_processing.py) and the
    caller polling for the result meet here. Kept until the staging sweep
    (sns/services/media_usage.py) removes it, STGY_MEDIA_STAGING_TTL_SECONDS later."""

    PROCESSING, DONE, REFUSED = "processing", "done", "refused"
    STATES = ((PROCESSING, PROCESSING), (DONE, DONE), (REFUSED, REFUSED))

    # Unique: a staged file is finalized once; a second finalize finds this row.
    staging_key = models.CharField(max_length=255, unique=True)
    owner = models.ForeignKey("sns.User", on_delete=models.CASCADE, related_name="+")
    master_key = models.CharField(max_length=255)
    preview_key = models.CharField(max_length=255)
    state = models.CharField(max_length=16, choices=STATES, default=PROCESSING)
    error = models.CharField(max_length=200, blank=True, default="")  # the 400's text
    size = models.PositiveBigIntegerField(default=0)  # the master's bytes
    preview_size = models.PositiveBigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    def __str__(self):
        return f"{self.staging_key} ({self.state})"
