from django.apps import AppConfig


class AgentsConfig(AppConfig):
    name = "agents"
    verbose_name = "AI users"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # The rulebook's seam (sns/extensions.py): agents answers its signals and adds
        # its extras to the pages; sns never imports agents.
        from sns.extensions import register_task_submitter

        from . import hooks
        from .runner import submit_task
        from .web import extras

        hooks.connect()
        self._knowledge_sources_signals()
        extras.register()
        register_task_submitter(submit_task)
        # agents/runs/owed.py finds the respond task by its name (that package sits
        # below agents/respond), so every agents task is registered wherever Django
        # runs, not only where a worker's autodiscovery imports agents.tasks.
        from . import tasks  # noqa: F401

    def _knowledge_sources_signals(self):
        # The knowledge sources marked in Django admin are cached; a change drops the copy.
        from django.db.models.signals import post_delete, post_save

        from .models import KnowledgeSource
        from .runs.knowledge import sources_changed

        post_save.connect(sources_changed, sender=KnowledgeSource, dispatch_uid="agents.knowledge_saved")
        post_delete.connect(sources_changed, sender=KnowledgeSource, dispatch_uid="agents.knowledge_deleted")
