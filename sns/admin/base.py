"""What every read-only page of Django admin shares (sns/admin/social.py,
sns/admin/messages.py, agents/admin.py): rows there are written through the services or
by the AI cycle, never by hand."""

from __future__ import annotations

from django.contrib import admin


class ReadOnlyAdmin(admin.ModelAdmin):
    """No add or change; delete only where a subclass sets `deletable` (and the admin
    user has the permission)."""

    deletable = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return self.deletable and super().has_delete_permission(request, obj)
