"""Reports of posts and replies join the reports of messages in one table, so admins
have one review queue (docs/pages.md §3). Existing rows are message reports."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("sns", "0011_reposts_quotes_bookmarks"),
    ]

    operations = [
        migrations.RenameModel(old_name="MessageReport", new_name="Report"),
        migrations.AddField(
            model_name="report",
            name="kind",
            field=models.CharField(
                choices=[("message", "message"), ("post", "post"), ("reply", "reply")],
                default="message",
                max_length=10,
            ),
        ),
        migrations.AlterField(
            model_name="report",
            name="message",
            field=models.ForeignKey(
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="reports",
                to="sns.message",
            ),
        ),
        migrations.AddField(
            model_name="report",
            name="post",
            field=models.ForeignKey(
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to="sns.post",
            ),
        ),
        migrations.AddField(
            model_name="report",
            name="post_owner",
            field=models.ForeignKey(
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="report",
            name="post_content",
            field=models.TextField(blank=True, default=""),
        ),
        migrations.AddField(
            model_name="report",
            name="note",
            field=models.TextField(blank=True, default=""),
        ),
        migrations.AddConstraint(
            model_name="report",
            constraint=models.UniqueConstraint(
                condition=models.Q(("status", "open")),
                fields=("post", "reporter"),
                name="post_report_open_once",
            ),
        ),
        migrations.AddConstraint(
            model_name="report",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("kind", "message"), ("message__isnull", False), ("post__isnull", True)),
                    models.Q(("kind__in", ["post", "reply"]), ("message__isnull", True)),
                    _connector="OR",
                ),
                name="report_one_target",
            ),
        ),
    ]
