"""The message pages' tag library, published under its name (see stgy_web)."""

from sns.web.templatetags.stgy_messages import register  # noqa: F401
