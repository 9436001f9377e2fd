"""Tables of the public sites (docs/publication.md): each user's site settings and the
daily page-view counts of their public posts."""

from __future__ import annotations

from django.db import models


class PubConfig(models.Model):
    """A user's public site. No row means the defaults (docs/publication.md §1); the
    column lengths are the original's limits."""

    user = models.OneToOneField(
        "sns.User", on_delete=models.CASCADE, primary_key=True, related_name="pub_config"
    )
    site_name = models.CharField(max_length=50, blank=True, default="")
    subtitle = models.CharField(max_length=50, blank=True, default="")
    author = models.CharField(max_length=50, blank=True, default="")
    introduction = models.CharField(max_length=1000, blank=True, default="")
    design_theme = models.CharField(max_length=50, blank=True, default="")
    show_service_header = models.BooleanField(default=True)
    show_site_name = models.BooleanField(default=True)
    show_pagenation = models.BooleanField(default=True)
    show_side_profile = models.BooleanField(default=True)
    show_side_recent = models.IntegerField(default=5)
    show_side_popular = models.IntegerField(default=5)

    def __str__(self):
        return f"site of {self.user_id}: {self.site_name}"


class PostPubView(models.Model):
    """Distinct readers of one public post on one UTC day; `owner` is kept so one
    owner's stats read one index range."""

    post = models.ForeignKey("sns.Post", on_delete=models.CASCADE, related_name="+", db_index=False)
    owner = models.ForeignKey("sns.User", on_delete=models.CASCADE, related_name="+", db_index=False)
    day = models.DateField()
    count = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["post", "day"], name="post_pub_view_unique")
        ]
        indexes = [models.Index(fields=["owner", "day"], name="post_pub_view_owner_idx")]

    def __str__(self):
        return f"{self.post_id} {self.day}: {self.count}"
