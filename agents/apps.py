from django.apps import AppConfig


class AgentsConfig(AppConfig):
    name = "agents"
    verbose_name = "AI users"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # The rulebook's seam (sns/extensions.py): agents answers its signals and adds
        # its extras to the pages; sns never imports agents.
        from . import hooks
        from .web import extras

        hooks.connect()
        extras.register()
        # agents/runs/owed.py finds the respond task by its name (that package sits
        # below agents/respond), so every agents task is registered wherever Django
        # runs, not only where a worker's autodiscovery imports agents.tasks.
        from . import tasks  # noqa: F401
