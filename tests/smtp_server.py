"""An SMTP server of the test's own on a free loopback port, for Django's real SMTP
backend: it keeps every message it accepts, and can be held — it takes connections but
does not greet them until released, as a slow mail provider would."""

from __future__ import annotations

import socketserver
import threading
from email import message_from_bytes

import pytest


class _Session(socketserver.StreamRequestHandler):
    def handle(self) -> None:
        server: SmtpServer = self.server.owner
        server.released.wait(timeout=60)
        self._reply("220 test SMTP ready")
        recipients: list[str] = []
        while line := self.rfile.readline():
            command = line.decode("ascii", "replace").strip()
            verb = command.split(" ", 1)[0].upper()
            if verb in ("EHLO", "HELO"):
                self._reply("250 test")
            elif verb == "MAIL":
                recipients = []
                self._reply("250 OK")
            elif verb == "RCPT":
                recipients.append(command.split(":", 1)[1].strip(" <>"))
                self._reply("250 OK")
            elif verb == "DATA":
                self._reply("354 go on")
                data = b""
                while (chunk := self.rfile.readline()) not in (b".\r\n", b""):
                    data += chunk[1:] if chunk.startswith(b"..") else chunk
                server.messages.append((recipients, message_from_bytes(data)))
                self._reply("250 queued")
            elif verb == "QUIT":
                self._reply("221 bye")
                return
            else:  # RSET, NOOP
                self._reply("250 OK")

    def _reply(self, text: str) -> None:
        self.wfile.write(text.encode() + b"\r\n")


class _Threaded(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


class SmtpServer:
    def __init__(self) -> None:
        self.released = threading.Event()
        self.released.set()
        self.messages: list[tuple[list[str], object]] = []
        self._server = _Threaded(("127.0.0.1", 0), _Session)
        self._server.owner = self
        self.port = self._server.server_address[1]
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def hold(self) -> None:
        self.released.clear()

    def release(self) -> None:
        self.released.set()

    def sent_to(self, address: str) -> list:
        return [message for recipients, message in self.messages if address in recipients]

    def stop(self) -> None:
        self.release()
        self._server.shutdown()
        self._server.server_close()


@pytest.fixture
def smtp_server(settings):
    """Django's SMTP backend, pointed at a server of the test's own."""
    server = SmtpServer()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", server.port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    yield server
    server.stop()
