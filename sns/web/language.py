"""The interface's language (docs/pages.md §8): a member's, from the language of their
settings (`ja-JP` → Japanese); a visitor's, from the browser (Accept-Language). The
interface is translated into the languages of settings.LANGUAGES (locale/<lang>/
LC_MESSAGES/django.po, compiled to the committed django.mo); any other language reads
it in English."""

from __future__ import annotations

from django.conf import settings
from django.utils import translation

from sns.api.cors import API_PREFIXES


def interface_language(locale: str | None) -> str:
    """The interface language for a user's `locale` (`ja-JP` → `ja`; unknown → English)."""
    base = (locale or "").split("-")[0].lower()
    supported = {code for code, _ in settings.LANGUAGES}
    return base if base in supported else settings.LANGUAGE_CODE


class InterfaceLanguageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path.startswith(API_PREFIXES):
            # The API speaks the original's English and its answers carry no language
            # (the hot reads, answered before this step, are byte for byte the same).
            return self.get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            language = interface_language(user.locale)
        else:
            language = translation.get_language_from_request(request)
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()
        response = self.get_response(request)
        response.headers.setdefault("Content-Language", request.LANGUAGE_CODE)
        return response
