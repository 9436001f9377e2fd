"""Who may read /metrics: an admin's session, a scraper with the bearer token
STGY_METRICS_TOKEN, or a client whose address is in STGY_METRICS_ALLOWED_NETWORKS
(loopback by default, where a Prometheus beside the site scrapes from)."""

from __future__ import annotations

import hmac
import ipaddress
import logging

from django.conf import settings
from rest_framework.throttling import BaseThrottle

from sns.reads.access import access_admin

log = logging.getLogger(__name__)


def _networks() -> list:
    networks = []
    for entry in settings.STGY_METRICS_ALLOWED_NETWORKS:
        try:
            networks.append(ipaddress.ip_network(entry.strip(), strict=False))
        except ValueError:
            log.warning("ignoring malformed STGY_METRICS_ALLOWED_NETWORKS entry %r", entry)
    return networks


def has_token(request) -> bool:
    token = settings.STGY_METRICS_TOKEN
    given = request.META.get("HTTP_AUTHORIZATION", "")
    return bool(token) and hmac.compare_digest(given.encode(), f"Bearer {token}".encode())


def from_allowed_network(request) -> bool:
    # The same client address as the login throttle: STGY_TRUSTED_PROXIES decides
    # which X-Forwarded-For entry is the client's (docs/operations.md).
    ident = BaseThrottle().get_ident(request) or ""  # no address at all under some servers
    try:
        address = ipaddress.ip_address(ident.strip())
    except ValueError:
        return False
    return any(address in network for network in _networks())


def access_metrics(request) -> None:
    """Raise Forbidden("admin only") unless the caller may read the metrics."""
    if has_token(request) or from_allowed_network(request):
        return
    access_admin(request.user)
