"""Create the demo admin if the database has no admin yet (idempotent)."""

from django.core.management.base import BaseCommand

from sns.models import User


class Command(BaseCommand):
    help = "Create an admin account if none exists."

    def add_arguments(self, parser):
        parser.add_argument("--email", default="admin@stgy.local")
        parser.add_argument("--password", default="stgy-admin")
        parser.add_argument("--nickname", default="Admin")

    def handle(self, *args, email, password, nickname, **options):
        if User.objects.filter(is_admin=True).exists():
            self.stdout.write("an admin exists already")
            return
        User.objects.create_superuser(email=email, password=password, nickname=nickname)
        self.stdout.write(self.style.SUCCESS(f"created admin {email}"))
