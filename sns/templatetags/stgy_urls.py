"""The kept `{% url %}` library, published under its name (see stgy_web)."""

from sns.web.templatetags.stgy_urls import register  # noqa: F401
