"""`manage.py llmcheck`: generate one token through the configured provider, and say
what today's budgets are (a warning when none was set and the default applies)."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from agents.budget import budget_status
from agents.llm.gateway import health_check


class Command(BaseCommand):
    help = (
        "Check the LLM provider by generating one token with the basic tier, and show today's "
        "use against the budgets; non-zero exit on failure."
    )

    def handle(self, *args, **options):
        result = health_check()
        budget = budget_status()
        result["budget"] = {key: str(value) if not isinstance(value, (int, list, bool)) else value
                            for key, value in budget.items()}
        self.stdout.write(json.dumps(result, ensure_ascii=False, sort_keys=True))
        for warning in budget["warnings"]:
            self.stderr.write(f"warning: {warning}")
        if not result["ok"]:
            raise CommandError(f"LLM check failed: {result['error']}")
