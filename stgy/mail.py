"""The embedded mode's mail backend: every mail is printed on the console and kept as
a file under EMAIL_FILE_PATH (var/mail/ by default), so a demo person can read the
verification code in the terminal or in the file (docs/accounts.md §5)."""

from __future__ import annotations

from django.core.mail.backends.base import BaseEmailBackend
from django.core.mail.backends.console import EmailBackend as ConsoleBackend
from django.core.mail.backends.filebased import EmailBackend as FileBackend


class ConsoleAndFileEmailBackend(BaseEmailBackend):
    def __init__(self, fail_silently=False, **kwargs):
        super().__init__(fail_silently=fail_silently)
        self.file = FileBackend(fail_silently=fail_silently, **kwargs)
        self.console = ConsoleBackend(fail_silently=fail_silently, **kwargs)

    def send_messages(self, email_messages):
        self.file.send_messages(email_messages)
        return self.console.send_messages(email_messages)

    def close(self):
        self.file.close()
        self.console.close()
