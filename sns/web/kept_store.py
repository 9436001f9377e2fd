"""The per-process store behind every kept rendering (sns/web/kept_widgets.py,
kept_compose.py, kept_chrome.py, templatetags/stgy_urls.py): keys are exact (whatever
the rendering depends on), so nothing is ever stale, only unused; a store that reaches
its limit is emptied rather than allowed to grow."""

from __future__ import annotations


class KeptStore:
    def __init__(self, limit: int):
        self.limit = limit
        self._items: dict = {}

    def get(self, key):
        """The kept value, or None; an unhashable key raises TypeError as a dict does."""
        return self._items.get(key)

    def put(self, key, value):
        if len(self._items) >= self.limit:
            self._items.clear()
        self._items[key] = value
        return value

    def clear(self) -> None:
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)
