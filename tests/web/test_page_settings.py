"""Settings a page reads once rather than on every card or link: STGY_PAGE_FRAGMENTS once
a request (sns/web/fragments.py `fragments_on`), and the URL patterns of the kept
`{% url %}` (sns/web/templatetags/stgy_urls.py), whose store a changed ROOT_URLCONF
empties."""

from __future__ import annotations

from django.test import RequestFactory

from sns.web import fragments
from sns.web.templatetags import stgy_urls


def test_the_card_builder_is_chosen_once_a_request(settings):
    settings.STGY_PAGE_FRAGMENTS = True
    first = RequestFactory().get("/")
    assert fragments.fragments_on(first) is True
    settings.STGY_PAGE_FRAGMENTS = False
    assert fragments.fragments_on(first) is True  # the page keeps the builder it began with
    assert fragments.fragments_on(RequestFactory().get("/")) is False


def test_a_changed_urlconf_empties_the_kept_urls(settings):
    stgy_urls.clear()
    assert stgy_urls.kept_reverse("web:home", [], {}, None) == "/"
    assert len(stgy_urls._kept) == 1
    settings.STGY_PAGE_FRAGMENTS = not settings.STGY_PAGE_FRAGMENTS  # another setting: kept
    assert len(stgy_urls._kept) == 1
    settings.ROOT_URLCONF = "stgy.urls"
    assert len(stgy_urls._kept) == 0
