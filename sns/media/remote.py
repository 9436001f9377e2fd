"""Fetching a remote image for an admin's `POST images/import` (docs/media.md §1), with
the original's guards against reaching inside the network (sns/core/netfetch.py): http(s)
only, never this site's own host, every resolved address public (or in
STGY_MEDIA_IMPORT_ALLOWED_NETWORKS), the connection pinned to the checked address,
redirects checked again, a byte limit, a timeout. Only JPEG, PNG and WebP come back
(the original also passes GIF, BMP, TIFF and SVG)."""

from __future__ import annotations

from django.conf import settings

from sns.core import netfetch
from sns.core.errors import InvalidInput

from . import images

TIMEOUT_SECONDS = 15
MAX_REDIRECTS = 5


def fetch(url_text, *, site_host: str, max_bytes: int) -> tuple[bytes, str]:
    """(bytes, content type) of the image at `url_text`, or InvalidInput with the reason."""
    policy = netfetch.Policy(
        label="remote image", timeout=TIMEOUT_SECONDS, max_redirects=MAX_REDIRECTS,
        max_bytes=max_bytes, too_large="remote image is too large",
        allowed_networks=netfetch.networks(settings.STGY_MEDIA_IMPORT_ALLOWED_NETWORKS),
        own_hosts=netfetch.own_hosts(site_host),
        accept="image/*,*/*;q=0.8", user_agent="STGY remote image importer",
    )
    try:
        data = netfetch.get(url_text, policy).body
    except netfetch.FetchError as exc:
        raise InvalidInput(str(exc)) from None
    try:
        mime, _w, _h = images.sniff(data)
    except InvalidInput:
        raise InvalidInput("response is not an image") from None
    return data, mime
