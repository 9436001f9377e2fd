"""One error vocabulary for the rulebook; the API and page handlers translate it."""


class DomainError(Exception):
    """`field` optionally names the input the error concerns (in the API's or a form's
    name), for when the message does not start with it; pages show the message next
    to that field (sns/web/field_errors.py). The API answers the message only."""

    status = 400

    def __init__(self, message: str, *, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


class InvalidInput(DomainError):
    status = 400


class Conflict(DomainError):
    """A write that contradicts existing state (already liked, already following).
    The original answers these with 400, and so do we."""

    status = 400


class NotAllowed(DomainError):
    """The rules refuse this action for this actor (blocked, likes disabled...): 400."""

    status = 400


class Forbidden(DomainError):
    status = 403


class Throttled(DomainError):
    status = 403


class NotFound(DomainError):
    status = 404

    def __init__(self, message: str = "not found"):
        super().__init__(message)


class LoginRequired(DomainError):
    status = 401

    def __init__(self, message: str = "login required"):
        super().__init__(message)


class NotLatest(DomainError):
    """The request names a version that is no longer the current one (accepting an
    agreement term that has been superseded): 409, as the original answers."""

    status = 409


class TooManyRequests(DomainError):
    """A rate limit on work the server does for anyone, signed in or not (link previews
    fetched per client and per remote host): 429, as the original answers."""

    status = 429
