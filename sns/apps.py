from django.apps import AppConfig


class SnsConfig(AppConfig):
    name = "sns"
    verbose_name = "Social network"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # Deletes of session and auth-record keys that Redis missed are kept in the
        # database until it has them (docs/architecture.md §9).
        from stgy.cache import register_durable_deletes

        from .auth.tombstones import PREFIXES, tombstones_apply, tombstones_record

        register_durable_deletes(prefixes=PREFIXES, record=tombstones_record, apply=tombstones_apply)
