"""sns/core/netfetch.py keeps one deadline for the whole fetch, whatever the peer does: a
server that sends its status line and headers a byte at a time, each byte well within
any per-read timeout, is cut off at the deadline instead of holding the caller for as
long as it keeps sending (a dribbling server once held a 10 s fetch for 40 s); so is one that accepts
the connection and never answers, and one that dribbles its body."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from sns.core import netfetch

HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Padding: " + b"a" * 40 + b"\r\n\r\n"
BODY = b"<html><head><title>Finally</title></head></html>"


@contextmanager
def raw_server(handle) -> Iterator[str]:
    """A TCP server on loopback that runs `handle(connection)` per client."""
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve():
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            threading.Thread(target=_run, args=(handle, conn), daemon=True).start()

    server = threading.Thread(target=serve, daemon=True)
    server.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        server.join()
        listener.close()


def _run(handle, conn):
    with conn:
        try:
            conn.recv(65536)  # the request
            handle(conn)
        except OSError:
            pass  # the client gave up: what the deadline is for


def dribble(data: bytes, every: float, sent: list | None = None):
    """Send `data` a byte every `every` seconds; `sent` counts the bytes sent before the
    client hung up."""
    def handle(conn):
        for i in range(len(data)):
            conn.sendall(data[i:i + 1])
            if sent is not None:
                sent.append(1)
            time.sleep(every)
    return handle


def policy(seconds: float) -> netfetch.Policy:
    return netfetch.Policy(timeout=seconds, allow_private=True)


def test_a_peer_dribbling_its_headers_is_cut_off_at_the_deadline():
    # 0.05 s a byte: never quiet for long; the headers alone take about 4.5 s to send.
    sent: list = []
    with raw_server(dribble(HEAD + BODY, 0.05, sent)) as base:
        with pytest.raises(netfetch.FetchError, match="timed out"):
            netfetch.get(base + "/", policy(0.6))
        wait_until(lambda: len(sent) > 0)
    # The fetch hung up while the headers were still coming, not once they were in.
    assert len(sent) < len(HEAD) // 2


def wait_until(predicate, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate() and time.monotonic() < deadline:
        time.sleep(0.01)


def test_a_peer_that_never_answers_and_one_dribbling_its_body_are_cut_off():
    silent = raw_server(lambda conn: time.sleep(5))
    with silent as base, pytest.raises(netfetch.FetchError, match="timed out"):
        netfetch.get(base + "/", policy(0.4))
    slow_body = raw_server(lambda conn: (conn.sendall(HEAD), dribble(BODY * 4, 0.05)(conn)))
    with slow_body as base, pytest.raises(netfetch.FetchError, match="timed out"):
        netfetch.get(base + "/", policy(0.6))


def test_a_prompt_peer_is_read_whole():
    with raw_server(lambda conn: conn.sendall(HEAD + BODY)) as base:
        fetched = netfetch.get(base + "/", policy(2))
    assert fetched.status == 200 and fetched.body == BODY and fetched.content_type == "text/html"
