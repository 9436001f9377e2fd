# Memory versions and holds (docs/data-model.md, "Memory versions"). The current value
# of every memory becomes its first version ("baseline"), so the first rewrite after
# this migration keeps what it replaced, as every later one does.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def _baseline(apps, schema_editor):
    from django.utils import timezone

    version = apps.get_model("agents", "MemoryVersion")
    table = schema_editor.quote_name(version._meta.db_table)
    qn = schema_editor.quote_name
    now = timezone.now()
    copies = (
        # (memory model, kind, peer column, post column, text column, extra columns)
        ("Interest", "interest", "NULL", "NULL", "interest", "tags, features, embedding_model"),
        ("PeerImpression", "peer", "peer_id", "NULL", "payload", None),
        ("PostImpression", "post", "peer_id", "post_id", "payload", None),
    )
    with schema_editor.connection.cursor() as cursor:
        for model_name, kind, peer, post, text, extra in copies:
            source = qn(apps.get_model("agents", model_name)._meta.db_table)
            columns = "user_id, kind, peer_id, post_id, created_at, source, stage, text, tags, features, embedding_model"
            values = f"user_id, %s, {peer}, {post}, updated_at, 'baseline', '', {text}, "
            values += extra if extra else "%s, NULL, ''"
            params = [kind] if extra else [kind, "[]"]
            cursor.execute(f"INSERT INTO {table} ({columns}) SELECT {values} FROM {source}", params)
    relationship = apps.get_model("agents", "Relationship")
    levels = ((0.8, "close friend"), (0.5, "friend"), (0.2, "acquaintance"), (0.0, "stranger"))
    rows = [
        version(
            user_id=r.user_id, kind="relationship", peer_id=r.peer_id, created_at=r.updated_at or now,
            source="baseline", text=next(name for floor, name in levels if r.score >= floor), score=r.score, tags=[],
        )
        for r in relationship.objects.all().iterator()
    ]
    version.objects.bulk_create(rows, batch_size=1000)


class Migration(migrations.Migration):

    dependencies = [
        ('agents', '0006_call_traces'),
        ('sns', '0017_ai_stop_words_and_quiet_hours'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='interest',
            name='hold_impressions',
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name='interest',
            name='hold_interest',
            field=models.BooleanField(default=False),
        ),
        migrations.CreateModel(
            name='MemoryVersion',
            fields=[
                ('id', models.BigAutoField(primary_key=True, serialize=False)),
                ('kind', models.CharField(choices=[('interest', 'Interest'), ('peer', 'Peer'), ('post', 'Post'), ('relationship', 'Relationship')], max_length=12)),
                ('created_at', models.DateTimeField()),
                ('source', models.CharField(choices=[('cycle', 'Cycle'), ('respond', 'Respond'), ('admin', 'Admin'), ('api', 'Api'), ('restore', 'Restore'), ('exchange', 'Exchange'), ('baseline', 'Baseline')], max_length=10)),
                ('stage', models.CharField(blank=True, default='', max_length=40)),
                ('restored_from', models.BigIntegerField(blank=True, null=True)),
                ('text', models.TextField(blank=True, default='')),
                ('tags', models.JSONField(blank=True, default=list)),
                ('features', models.BinaryField(blank=True, null=True)),
                ('embedding_model', models.CharField(blank=True, default='', max_length=100)),
                ('score', models.FloatField(blank=True, null=True)),
                ('peer', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('post', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='sns.post')),
                ('run', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='agents.cyclerun')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'indexes': [models.Index(fields=['user', 'kind', 'peer', '-id'], name='memory_version_memory_idx'), models.Index(fields=['created_at'], name='memory_version_time_idx')],
            },
        ),
        migrations.RunPython(_baseline, migrations.RunPython.noop),
    ]
