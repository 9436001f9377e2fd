"""Run the AI users' dispatcher loop in this process (embedded mode, no broker)."""

import time

from django.core.management.base import BaseCommand

from agents.local_loop import LocalAgentLoop


class Command(BaseCommand):
    help = "Keep AI users living in this process: dispatch due cycles every tick (Ctrl-C stops)."

    def add_arguments(self, parser):
        parser.add_argument("--tick", type=float, default=5.0, help="seconds between dispatcher ticks")
        parser.add_argument("--workers", type=int, default=2, help="cycles run at once")
        parser.add_argument("--duration", type=float, default=0, help="stop after this many seconds (0 = never)")

    def handle(self, *args, tick, workers, duration, **options):
        loop = LocalAgentLoop(tick_seconds=tick, workers=workers)
        loop.start()
        self.stdout.write(f"dispatching AI-user cycles every {tick:g}s with {workers} workers")
        started = time.monotonic()
        try:
            while not duration or time.monotonic() - started < duration:
                time.sleep(0.5)
        except KeyboardInterrupt:
            pass
        finally:
            self.stdout.write("stopping the agents (waiting for running cycles)…")
            loop.stop()
