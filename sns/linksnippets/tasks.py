"""A link preview's fetch as a Celery task, beside the code it runs, so the preview
service enqueues it without importing the interface layer (`sns/tasks.py` imports it
for Celery's discovery)."""

from __future__ import annotations

from celery import shared_task

from . import fetching


@shared_task(name="sns.fetch_link_snippet")
def fetch_link_snippet(url: str, site_host: str, token: str, keep_old: bool) -> None:
    """A link preview's fetch (sns/linksnippets/fetching.py), out of the request."""
    fetching.fetch(url, site_host, token, keep_old)
