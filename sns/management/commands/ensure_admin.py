"""Create the demo admin if the database has no admin yet (idempotent)."""

from django.core.management.base import BaseCommand, CommandError

from sns.core.errors import InvalidInput
from sns.core.ids import parse_id
from sns.models import User


class Command(BaseCommand):
    help = "Create an admin account if none exists."

    def add_arguments(self, parser):
        parser.add_argument("--email", default="admin@stgy.local")
        parser.add_argument("--password", default="stgy-admin")
        parser.add_argument("--nickname", default="Admin")
        # The original's seed data names its admin 0000000000000001; with that id here
        # its seeding tools update our admin instead of failing on a missing one.
        parser.add_argument("--id", dest="user_id", default="", help="the admin's hex id")

    def handle(self, *args, email, password, nickname, user_id, **options):
        if User.objects.filter(is_admin=True).exists():
            self.stdout.write("an admin exists already")
            return
        fields = {}
        if user_id:
            try:
                fields["id"] = parse_id(user_id, "id")
            except InvalidInput as exc:
                raise CommandError(exc.message) from None
            if User.objects.filter(pk=fields["id"]).exists():
                raise CommandError("id is already in use")
        user = User.objects.create_superuser(
            email=email, password=password, nickname=nickname, **fields
        )
        self.stdout.write(self.style.SUCCESS(f"created admin {email} ({user.hex_id})"))
