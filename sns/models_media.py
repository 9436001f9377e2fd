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
