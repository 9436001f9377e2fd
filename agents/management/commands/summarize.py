"""`manage.py summarize [--all | --missing | POST_ID…]`: summarise posts now, in this
process (no broker needed), with a progress bar."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from agents.llm import gateway
from agents.llm.errors import LlmError
from agents.models import PostSummary
from agents.summaries.service import summary_generate
from agents.summaries.sweep import summaries_due
from sns.core.errors import InvalidInput
from sns.core.ids import id_to_hex, parse_id
from sns.models import Post

BAR_WIDTH = 30


class Command(BaseCommand):
    help = (
        "Summarise posts: every post (--all), missing or stale ones (--missing), or the given ids."
    )

    def add_arguments(self, parser):
        group = parser.add_mutually_exclusive_group()
        group.add_argument("--all", action="store_true", help="re-summarise every post")
        group.add_argument(
            "--missing",
            action="store_true",
            help="posts whose summary is pending or whose vector is of another embedding model",
        )
        parser.add_argument("post_ids", nargs="*", metavar="POST_ID", help="hex post ids")

    def handle(self, *args, post_ids, **options):
        if not gateway.ai_enabled():
            raise CommandError("AI is off (STGY_AI_PROVIDER=none): nothing to summarise")
        if post_ids and (options["all"] or options["missing"]):
            raise CommandError("give post ids, --all or --missing, not several")
        force = bool(post_ids) or options["all"]
        if options["all"]:
            ids = list(Post.objects.order_by("id").values_list("id", flat=True))
        elif post_ids:
            try:
                ids = [parse_id(value, "post id") for value in post_ids]
            except InvalidInput as exc:
                raise CommandError(exc.message) from None
        else:  # --missing is the default: it is the safe choice
            ids = list(summaries_due().values_list("post_id", flat=True))
        outcomes: dict[str, int] = {}
        for done, post_id in enumerate(ids, start=1):
            try:
                outcome = summary_generate(post_id, force=force)
            except LlmError as exc:
                outcome = "failed"
                self.stderr.write(f"\n{id_to_hex(post_id)}: {exc}")
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
            self._progress(done, len(ids))
        if ids and self.stdout.isatty():
            self.stdout.write("")
        summary = (
            ", ".join(f"{name} {count}" for name, count in sorted(outcomes.items()))
            or "nothing to do"
        )
        pending = PostSummary.objects.filter(summary__isnull=True).count()
        self.stdout.write(f"{len(ids)} posts: {summary}; {pending} pending in all")

    def _progress(self, done: int, total: int) -> None:
        tty = self.stdout.isatty()
        # On a terminal the bar redraws in place; in a log, one line per 5 %.
        if not tty and done != total and done % max(1, total // 20):
            return
        filled = BAR_WIDTH * done // total
        bar = "#" * filled + "-" * (BAR_WIDTH - filled)
        line = f"[{bar}] {done}/{total} ({100 * done // total}%)"
        self.stdout.write(f"\r{line}" if tty else line, ending="" if tty else "\n")
        self.stdout.flush()
