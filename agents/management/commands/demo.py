"""The embedded demo: prepare the database, seed the community, keep AI users living
in a background thread and serve the site. Ctrl-C (or SIGTERM) stops everything cleanly."""

import signal

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from agents.local_loop import LocalAgentLoop


class Command(BaseCommand):
    help = "Run the embedded demo: migrate, seed if empty, AI users in the background, serve."

    def add_arguments(self, parser):
        parser.add_argument("addrport", nargs="?", default="127.0.0.1:8000")
        parser.add_argument("--tick", type=float, default=5.0, help="seconds between dispatcher ticks")
        parser.add_argument("--workers", type=int, default=2, help="AI-user cycles run at once")
        parser.add_argument(
            "--people-every", type=float, default=150.0,
            help="seconds between the seeded people's posts and replies (0: they stay quiet)",
        )
        parser.add_argument("--no-serve", action="store_true", help="only run the AI users (for tests)")
        parser.add_argument("--duration", type=float, default=0, help="with --no-serve: stop after N seconds")

    def handle(self, *args, addrport, tick, workers, people_every, no_serve, duration, **options):
        from agents.demo.mcp_hint import demo_mcp_token, mcp_hint_lines
        from agents.demo.seed import DEMO_HUMAN_EMAIL, DEMO_PASSWORD, seed_demo_community
        from agents.demo.welcome import seed_welcome_posts

        call_command("migrate", interactive=False, verbosity=0)
        call_command("ensure_admin", stdout=self.stdout)
        # The welcome posts the original's frontend shows a new user, also in a demo
        # database seeded before they existed.
        seed_welcome_posts(stdout=self.stdout)
        result = seed_demo_community(stdout=self.stdout)
        if result.get("created"):
            self.stdout.write(
                f"seeded {result['humans']} people, {result['ai_users']} AI users, "
                f"{result['posts']} posts, {result['follows']} follows"
            )
        secret = demo_mcp_token(DEMO_HUMAN_EMAIL)
        _stop_on_signals()
        loop = LocalAgentLoop(tick_seconds=tick, workers=workers, people_every=people_every)
        loop.start()
        self.stdout.write(self.style.SUCCESS(f"STGY demo on http://{addrport}/"))
        self.stdout.write("  admin:  admin@stgy.local / stgy-admin   (AI memory, Agent activity)")
        self.stdout.write(f"  human:  {DEMO_HUMAN_EMAIL} / {DEMO_PASSWORD}")
        self.stdout.write(
            f"  LLM provider: {settings.STGY_AI_PROVIDER}; AI users cycle every "
            f"~{settings.STGY_AI_USER_LOOP_SLEEP_MS / 1000:.0f}s (Ctrl-C stops)"
        )
        for line in mcp_hint_lines(secret) if secret else []:
            self.stdout.write(line)
        try:
            if no_serve:
                import time

                started = time.monotonic()
                while not duration or time.monotonic() - started < duration:
                    time.sleep(0.5)
            else:
                call_command("runserver", addrport, use_reloader=False, use_threading=True)
        except KeyboardInterrupt:
            pass
        finally:
            self.stdout.write("stopping AI users…")
            loop.stop()


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def _stop_on_signals() -> None:
    """SIGTERM (a service manager, `kill`) stops the demo like Ctrl-C; and Ctrl-C works
    even when a shell started us in the background with SIGINT ignored."""
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, _interrupt)
