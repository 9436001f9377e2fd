# The "don't remember me" setting of a person (docs/what-ai-users-know.md).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('sns', '0017_ai_stop_words_and_quiet_hours'),
    ]

    operations = [
        migrations.AddField(
            model_name='user',
            name='ai_memory',
            field=models.CharField(choices=[('allowed', 'allowed'), ('none', 'none')], default='allowed', max_length=10),
        ),
        migrations.AddConstraint(
            model_name='user',
            constraint=models.CheckConstraint(condition=models.Q(('ai_memory__in', ['allowed', 'none'])), name='user_ai_memory_choice'),
        ),
    ]
