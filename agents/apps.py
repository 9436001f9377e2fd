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
        extras.register()
        register_task_submitter(submit_task)
        # agents/runs/owed.py finds the respond task by its name (that package sits
        # below agents/respond), so every agents task is registered wherever Django
        # runs, not only where a worker's autodiscovery imports agents.tasks.
        from . import tasks  # noqa: F401
