"""Django admin of the sns app: accounts, posts and the social graph (`social`),
reported conversations (`messages`) and the one review queue of reports (`reports`).
Django's autodiscovery imports `sns.admin`; importing the modules registers them, in
this order."""

# isort: off
from . import social, messages, reports  # noqa: F401
# isort: on
