"""Generate a synthetic community for the benchmarks (bench/README.md, "Communities").

Users (a share of them AI users with varied personalities and interests), posts of
realistic lengths in English and Japanese, replies, likes, follows, finished
summaries with AI tags, keyword hashes and hash-embedder vectors, and some AI memory,
loaded with COPY on PostgreSQL. The same seed gives the same community.
"""

from __future__ import annotations

import os
import sys
import time

from django.core.management.base import BaseCommand, CommandError


class Progress:
    """A one-line progress bar on stderr (a line per 10 % when stderr is not a terminal)."""

    def __init__(self, stream=None, width: int = 30) -> None:
        self.stream = stream or sys.stderr
        self.width = width
        self.tty = self.stream.isatty()

    def __call__(self, label: str, total: int):
        state = {"done": 0, "shown": -1.0, "started": time.monotonic(), "last": 0.0}

        def advance(n: int) -> None:
            state["done"] += n
            done, now = state["done"], time.monotonic()
            share = done / total if total else 1.0
            finished = done >= total
            if self.tty:
                if not finished and now - state["last"] < 0.2:
                    return
            elif not finished and share - state["shown"] < 0.1:
                return
            state["last"], state["shown"] = now, share
            elapsed = now - state["started"]
            rate = done / elapsed if elapsed > 0 else 0.0
            eta = (total - done) / rate if rate > 0 else 0.0
            bar = "#" * int(self.width * share)
            line = (
                f"{label:<8} [{bar:<{self.width}}] {share:6.1%} {done:>9,}/{total:,} "
                f"{rate:,.0f}/s {'ETA %.0fs' % eta if not finished else 'in %.1fs' % elapsed}"
            )
            end = "\n" if finished or not self.tty else ""
            self.stream.write(("\r" if self.tty else "") + line + end)
            self.stream.flush()

        if total == 0:
            advance(0)
        return advance


class Command(BaseCommand):
    help = "Generate a synthetic community (benchmark data) from a seed."

    def add_arguments(self, parser):
        parser.add_argument("--size", choices=["tiny", "small", "medium", "large", "custom"], default="small")
        parser.add_argument("--users", type=int, help="number of users (with --size custom, or to override)")
        parser.add_argument("--posts", type=int, help="number of posts (with --size custom, or to override)")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--ai-share", type=float, default=0.1, help="share of users that are AI users")
        parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                            help="processes generating texts and vectors (0 = in this process)")
        parser.add_argument("--anchor-ms", type=int, help="epoch ms the newest activity is just before "
                            "(default today's UTC midnight, so ids repeat for a day)")
        parser.add_argument("--reset", action="store_true",
                            help="empty every table of the site first (DESTROYS ITS DATA)")

    def handle(self, *args, size, users, posts, seed, ai_share, workers, anchor_ms, reset, **options):
        try:
            from agents.synthetic_community.generate import SIZES, check_embedder, generate
            from agents.synthetic_community.load import reset as reset_tables
        except ImportError as exc:
            raise CommandError(f"the generator lives in bench/ (run from the repository root): {exc}") from None
        from sns.models import User

        if size == "custom":
            if not users or not posts:
                raise CommandError("--size custom needs --users and --posts")
        else:
            default_users, default_posts = SIZES[size]
            users, posts = users or default_users, posts or default_posts
        if not 0 <= ai_share <= 1:
            raise CommandError("--ai-share must be between 0 and 1")
        try:
            check_embedder()
        except RuntimeError as exc:
            raise CommandError(str(exc)) from None
        if reset:
            reset_tables()
        elif User.objects.exists():
            raise CommandError("the database already has users; use an empty database or --reset")

        self.stderr.write(f"generating {users:,} users and {posts:,} posts (seed {seed}, AI share {ai_share})")
        stats = generate(
            users=users, posts=posts, seed=seed, ai_share=ai_share, anchor_ms=anchor_ms,
            workers=workers, progress=Progress(self.stderr._out),
        )
        for name, count in stats.rows.items():
            self.stdout.write(f"{name:<18} {count:>10,}")
        self.stdout.write(f"{'seconds':<18} {stats.seconds['total']:>10.1f}")
