from rest_framework.permissions import BasePermission

from sns.core.errors import LoginRequired as LoginRequiredError


class LoginRequired(BasePermission):
    """Default for every API view: anonymous callers get 401 `login required`."""

    def has_permission(self, request, view):
        if request.user is None or not request.user.is_authenticated:
            raise LoginRequiredError()
        return True


class Public(BasePermission):
    def has_permission(self, request, view):
        return True
