"""`manage.py llmcheck`: generate one token through the configured provider."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from agents.llm.gateway import health_check


class Command(BaseCommand):
    help = "Check the LLM provider by generating one token with the basic tier; non-zero exit on failure."

    def handle(self, *args, **options):
        result = health_check()
        self.stdout.write(json.dumps(result, ensure_ascii=False, sort_keys=True))
        if not result["ok"]:
            raise CommandError(f"LLM check failed: {result['error']}")
