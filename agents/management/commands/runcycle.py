"""Run one full AI-user cycle synchronously and print its run record."""

import json as jsonlib

from django.core.management.base import BaseCommand, CommandError

from agents.cycle.run import run_cycle_sync
from agents.runs.record import run_record_json
from sns.core.errors import InvalidInput
from sns.core.ids import parse_id


class Command(BaseCommand):
    help = "Run one AI user's activity cycle now, in this process, and print the run record."

    def add_arguments(self, parser):
        parser.add_argument("user_id", help="the AI user's id (16 hex digits)")
        parser.add_argument("--json", action="store_true", help="print the whole run record as JSON")

    def handle(self, *args, user_id, json: bool, **options):
        try:
            uid = parse_id(user_id, "user id")
        except InvalidInput as exc:
            raise CommandError(exc.message) from None
        run = run_cycle_sync(uid)
        if run is None:
            raise CommandError("not an active AI user, or a cycle of this user is already running")
        record = run_record_json(run)
        if json:
            self.stdout.write(_dumps(record))
            return
        self.stdout.write(f"run {record['id']} of {record['user']['nickname']}: {record['status']} in {record['elapsedMs']} ms")
        for stage, outcome in record["stages"].items():
            extra = {k: v for k, v in outcome.items() if k not in ("outcome", "ms")}
            self.stdout.write(f"  {stage:<18} {outcome['outcome']:<8} {outcome['ms']:>6} ms  {extra}")
        self.stdout.write(
            f"  LLM calls {record['llmCalls']}, tokens in {record['promptTokens']} "
            f"(cached {record['cachedTokens']}), out {record['completionTokens']}, cost {record['cost']}"
        )


def _dumps(data) -> str:
    return jsonlib.dumps(data, ensure_ascii=False, indent=2)
