"""Snippets become the original's serialised Markdown tree (docs/data-model.md,
"Snippets"): the columns become text (a tree with long link targets can pass 4096
characters) and every existing snippet is made again from its Markdown."""

from django.db import migrations, models

_BATCH = 500


def _remake(model, source_field):
    from sns.mdtree import make_snippet

    batch = []
    for row in model.objects.only("id", source_field, "snippet").iterator(chunk_size=_BATCH):
        row.snippet = make_snippet(getattr(row, source_field))
        batch.append(row)
        if len(batch) >= _BATCH:
            model.objects.bulk_update(batch, ["snippet"])
            batch = []
    if batch:
        model.objects.bulk_update(batch, ["snippet"])


def remake_snippets(apps, schema_editor):
    _remake(apps.get_model("sns", "User"), "introduction")
    _remake(apps.get_model("sns", "Post"), "content")


class Migration(migrations.Migration):

    dependencies = [
        ('sns', '0004_user_agreement_term'),
    ]

    operations = [
        migrations.AlterField(
            model_name='post',
            name='snippet',
            field=models.TextField(blank=True, default=''),
        ),
        migrations.AlterField(
            model_name='user',
            name='snippet',
            field=models.TextField(blank=True, default=''),
        ),
        # Not reversible to the plain excerpts; going back leaves the trees, which the
        # pages show as they are.
        migrations.RunPython(remake_snippets, migrations.RunPython.noop),
    ]
