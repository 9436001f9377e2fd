"""Django finds tag libraries only in installed apps' `templatetags` packages; the
pages' library lives with the pages in sns/web and is published here under its name."""

from sns.web.templatetags.stgy_web import register  # noqa: F401
