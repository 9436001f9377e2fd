"""Fetching a remote image for an admin's `POST images/import` (docs/media.md §1), with
the original's guards against reaching inside the network: http(s) only, never this
site's own host, every resolved address public (or in
STGY_MEDIA_IMPORT_ALLOWED_NETWORKS), the connection pinned to the checked address so a
second DNS answer cannot redirect it, redirects checked again, a byte limit, a timeout.
Only JPEG, PNG and WebP come back (the original also passes GIF, BMP, TIFF and SVG)."""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
from urllib.parse import urljoin, urlsplit

from django.conf import settings

from sns.errors import InvalidInput

from . import images

TIMEOUT_SECONDS = 15
MAX_REDIRECTS = 5
_REDIRECTS = (301, 302, 303, 307, 308)


def _allowed_networks():
    return [ipaddress.ip_network(n.strip(), strict=False)
            for n in settings.STGY_MEDIA_IMPORT_ALLOWED_NETWORKS if n.strip()]


def _address_allowed(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    return ip.is_global or any(ip in net for net in _allowed_networks())


def _own_hosts(site_host: str) -> set[str]:
    hosts = {site_host.rsplit(":", 1)[0].strip("[]").lower()} if site_host else set()
    hosts |= {urlsplit(o).hostname or "" for o in settings.STGY_CORS_ALLOWED_ORIGINS}
    return {h.rstrip(".") for h in hosts if h}


class _PinnedHTTP(http.client.HTTPConnection):
    def __init__(self, host, port, address, timeout):
        super().__init__(host, port, timeout=timeout)
        self._address = address

    def connect(self):
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


class _PinnedHTTPS(http.client.HTTPSConnection):
    def __init__(self, host, port, address, timeout):
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self._address = address

    def connect(self):
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


def _resolve(host: str, port: int) -> list[str]:
    try:
        return [row[4][0] for row in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)]
    except (socket.gaierror, UnicodeError, OSError):
        return []


def fetch(url_text, *, site_host: str, max_bytes: int) -> tuple[bytes, str]:
    """(bytes, content type) of the image at `url_text`, or InvalidInput with the reason."""
    if not isinstance(url_text, str) or not url_text:
        raise InvalidInput("invalid url")
    url = url_text
    own = _own_hosts(site_host)
    for _ in range(MAX_REDIRECTS + 1):
        try:
            parts = urlsplit(url)
            port = parts.port or (443 if parts.scheme.lower() == "https" else 80)
        except ValueError:
            raise InvalidInput("invalid url") from None
        if parts.scheme.lower() not in ("http", "https"):
            raise InvalidInput("only http and https urls are allowed")
        host = (parts.hostname or "").rstrip(".").lower()
        if not host:
            raise InvalidInput("invalid url host")
        if any(host == h or host.endswith("." + h) for h in own):
            raise InvalidInput("remote image host is not allowed")
        addresses = _resolve(host, port)
        if not addresses:
            raise InvalidInput("remote image host could not be resolved")
        if not all(_address_allowed(a) for a in addresses):
            raise InvalidInput("remote image address is not allowed")
        kind = _PinnedHTTPS if parts.scheme.lower() == "https" else _PinnedHTTP
        connection = kind(host, port, addresses[0], TIMEOUT_SECONDS)
        try:
            path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
            connection.request("GET", path, headers={
                "Accept": "image/*,*/*;q=0.8", "Accept-Encoding": "identity",
                "User-Agent": "STGY remote image importer"})
            response = connection.getresponse()
            if response.status in _REDIRECTS:
                location = response.getheader("Location")
                if not location:
                    raise InvalidInput("redirect response missing location")
                url = urljoin(url, location)
                continue
            if response.status != 200:
                raise InvalidInput(f"remote server responded with HTTP {response.status}")
            data = response.read(max_bytes + 1)
            if len(data) > max_bytes:
                raise InvalidInput("remote image is too large")
        except TimeoutError:
            raise InvalidInput("remote image request timed out") from None
        except (OSError, http.client.HTTPException, ssl.SSLError):
            raise InvalidInput("remote image request failed") from None
        finally:
            connection.close()
        try:
            mime, _w, _h = images.sniff(data)
        except InvalidInput:
            raise InvalidInput("response is not an image") from None
        return data, mime
    raise InvalidInput("too many redirects")
