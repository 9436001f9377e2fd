"""The one door for HTTP requests the site makes to addresses a user gave it: an admin's
image import (sns/media/remote.py) and link previews (sns/linksnippets/). Each caller
passes its limits as a `Policy`; the guards are the same for all:

* http and https only, no user name or password in the URL;
* never this site's own host names (and, for link previews, only the default ports);
* every address the host resolves to must be public — not private, loopback,
  link-local, multicast, reserved or unspecified, nor an IPv6 address that carries such
  an IPv4 address (IPv4-mapped, 6to4, NAT64) — unless the operator allows it;
* the connection goes to the address that was checked, so a second DNS answer cannot
  move it elsewhere (no DNS-rebinding window); TLS still verifies the host name;
* every redirect is checked again the same way, up to a bound;
* one deadline for the whole fetch — connecting, the TLS handshake, sending, the status
  line and headers, the body, every redirect — kept by the socket itself: each of its
  calls may wait only for the time left, so a peer that sends a byte now and then
  cannot stretch it (a timeout per read could be renewed forever); and a byte cap on
  what is read. Only the name lookup is outside it (the system resolver's own timeouts).
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

from django.conf import settings

_REDIRECTS = (301, 302, 303, 307, 308)
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_CHUNK = 16 * 1024


class FetchError(Exception):
    """A refused or failed fetch; the message is the reason, fit for a 4xx body."""


@dataclass(frozen=True)
class Policy:
    label: str = "remote"  # "remote image host is not allowed", "remote host is not allowed"
    timeout: float = 15.0  # seconds for the whole fetch
    max_redirects: int = 5
    max_bytes: int = 1024 * 1024
    too_large: str | None = None  # the error for a longer body; None: keep the first max_bytes
    allow_private: bool = False
    allowed_networks: tuple = ()  # non-public networks allowed anyway (ip_network objects)
    default_ports_only: bool = False
    own_hosts: frozenset = frozenset()
    accept: str = "*/*"
    user_agent: str = "STGY"
    # Called with (host, address) before each request; may raise (e.g. a rate limit).
    before_request: Callable[[str, str], None] | None = None
    # Given the bytes so far, True when nothing more is needed (e.g. </head> was seen).
    enough: Callable[[bytes], bool] | None = None
    extra_headers: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Fetched:
    url: str  # the final URL, after redirects
    status: int
    headers: http.client.HTTPMessage
    body: bytes

    @property
    def content_type(self) -> str | None:
        value = self.headers.get("Content-Type")
        return value.split(";", 1)[0].strip().lower() or None if value else None


def own_hosts(site_host: str) -> frozenset:
    """This site's host names: the request's host and the allowed CORS origins' hosts."""
    hosts = {site_host.rsplit(":", 1)[0].strip("[]").lower()} if site_host else set()
    hosts |= {urlsplit(o).hostname or "" for o in settings.STGY_CORS_ALLOWED_ORIGINS}
    return frozenset(h.rstrip(".") for h in hosts if h)


def networks(cidrs: list[str]) -> tuple:
    """The operator's list of CIDRs (a setting) as network objects."""
    return tuple(ipaddress.ip_network(n.strip(), strict=False) for n in cidrs if n.strip())


def is_public_address(ip) -> bool:
    """Globally routable unicast, also for any IPv4 address an IPv6 one carries."""
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = ip.ipv4_mapped or ip.sixtofour
        if embedded is None and ip in _NAT64:
            embedded = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        if embedded is not None and not is_public_address(embedded):
            return False
        if ip.ipv4_mapped is not None:
            return True  # the IPv4 address it stands for was just judged
    return ip.is_global and not (ip.is_multicast or ip.is_reserved or ip.is_unspecified)


def address_allowed(address: str, policy: Policy) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if policy.allow_private or is_public_address(ip):
        return True
    plain = ip.ipv4_mapped if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped else ip
    return any(plain in net for net in policy.allowed_networks)


class _Deadline:
    """A socket whose every blocking call gets only the time left before `deadline`
    (time.monotonic()); past it, TimeoutError."""

    deadline = 0.0

    def _arm(self) -> None:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("deadline passed")
        self.settimeout(left)

    def connect(self, *args):
        self._arm()
        return super().connect(*args)

    def recv(self, *args):
        self._arm()
        return super().recv(*args)

    def recv_into(self, *args, **kwargs):
        self._arm()
        return super().recv_into(*args, **kwargs)

    def send(self, *args):
        self._arm()
        return super().send(*args)

    def sendall(self, *args):
        self._arm()
        return super().sendall(*args)

    def do_handshake(self, *args):
        self._arm()
        return super().do_handshake(*args)


class _DeadlineSocket(_Deadline, socket.socket):
    pass


class _DeadlineSSLSocket(_Deadline, ssl.SSLSocket):
    pass


def _connect(address: str, port: int, deadline: float) -> socket.socket:
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    sock = _DeadlineSocket(family, socket.SOCK_STREAM)
    sock.deadline = deadline
    try:
        sock.connect((address, port))
    except BaseException:
        sock.close()
        raise
    return sock


class _PinnedHTTP(http.client.HTTPConnection):
    def __init__(self, host, port, address, deadline):
        super().__init__(host, port)
        self._address, self._deadline = address, deadline

    def connect(self):
        self.sock = _connect(self._address, self.port, self._deadline)


class _PinnedHTTPS(http.client.HTTPSConnection):
    def __init__(self, host, port, address, deadline):
        context = ssl.create_default_context()
        context.sslsocket_class = _DeadlineSSLSocket
        super().__init__(host, port, context=context)
        self._address, self._deadline = address, deadline

    def connect(self):
        sock = _connect(self._address, self.port, self._deadline)
        try:
            tls = self._context.wrap_socket(sock, server_hostname=self.host, do_handshake_on_connect=False)
        except BaseException:
            sock.close()
            raise
        tls.deadline = self._deadline
        self.sock = tls
        tls.do_handshake()


def _resolve(host: str, port: int) -> list[str]:
    try:
        rows = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return []
    return list(dict.fromkeys(row[4][0] for row in rows))


def _target(url: str, policy: Policy) -> tuple[str, str, int, str]:
    """(scheme, host, port, path) of an allowed URL, or FetchError."""
    try:
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        port = parts.port
    except ValueError:
        raise FetchError("invalid url") from None
    if scheme not in ("http", "https"):
        raise FetchError("only http and https urls are allowed")
    if parts.username is not None or parts.password is not None:
        raise FetchError("url credentials are not allowed")
    default = 443 if scheme == "https" else 80
    if policy.default_ports_only and port not in (None, default):
        raise FetchError("url port is not allowed")
    host = (parts.hostname or "").rstrip(".").lower()
    if not host:
        raise FetchError("invalid url host")
    if any(host == h or host.endswith("." + h) for h in policy.own_hosts):
        raise FetchError(f"{policy.label} host is not allowed")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return scheme, host, port or default, path


def get(url: str, policy: Policy) -> Fetched:
    """GET `url` under `policy`, following checked redirects; FetchError with the reason."""
    if not isinstance(url, str) or not url:
        raise FetchError("invalid url")
    deadline = time.monotonic() + policy.timeout
    for _ in range(policy.max_redirects + 1):
        scheme, host, port, path = _target(url, policy)
        addresses = _resolve(host, port)
        if not addresses:
            raise FetchError(f"{policy.label} host could not be resolved")
        if not all(address_allowed(a, policy) for a in addresses):
            raise FetchError(f"{policy.label} address is not allowed")
        if policy.before_request is not None:
            policy.before_request(host, addresses[0])
        fetched = _request(url, scheme, host, port, path, addresses[0], policy, deadline)
        if fetched.status in _REDIRECTS:
            location = fetched.headers.get("Location")
            if not location:
                raise FetchError("redirect response missing location")
            url = urljoin(url, location.strip())
            continue
        if not 200 <= fetched.status < 300:
            raise FetchError(f"remote server responded with HTTP {fetched.status}")
        return fetched
    raise FetchError("too many redirects")


def _remaining(deadline: float, policy: Policy) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise FetchError(f"{policy.label} request timed out")
    return left


def _request(url, scheme, host, port, path, address, policy: Policy, deadline: float) -> Fetched:
    kind = _PinnedHTTPS if scheme == "https" else _PinnedHTTP
    _remaining(deadline, policy)
    connection = kind(host, port, address, deadline)
    try:
        headers = {"Accept": policy.accept, "Accept-Encoding": "identity",
                   "User-Agent": policy.user_agent, **policy.extra_headers}
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        if response.status in _REDIRECTS or not 200 <= response.status < 300:
            return Fetched(url, response.status, response.headers, b"")
        body = bytearray()
        while len(body) <= policy.max_bytes:
            chunk = response.read1(_CHUNK)
            if not chunk:
                break
            body += chunk
            if policy.enough is not None and policy.enough(bytes(body)):
                break
        if len(body) > policy.max_bytes:
            if policy.too_large:
                raise FetchError(policy.too_large)
            del body[policy.max_bytes:]
        return Fetched(url, response.status, response.headers, bytes(body))
    except TimeoutError:
        raise FetchError(f"{policy.label} request timed out") from None
    except (OSError, http.client.HTTPException, ssl.SSLError):
        raise FetchError(f"{policy.label} request failed") from None
    finally:
        connection.close()
