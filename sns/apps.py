from django.apps import AppConfig


class SnsConfig(AppConfig):
    name = "sns"
    verbose_name = "Social network"
    default_auto_field = "django.db.models.BigAutoField"
