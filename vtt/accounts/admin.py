from django.contrib import admin

from .models import JoinFailure, LoginFailure


@admin.register(LoginFailure)
class LoginFailureAdmin(admin.ModelAdmin):
    """Failed log-ins within the cool-off; deleting a client's rows lifts
    its lock at once."""

    list_display = ["at", "username", "address"]
    search_fields = ["username", "address"]
    ordering = ["-at"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(JoinFailure)
class JoinFailureAdmin(admin.ModelAdmin):
    """Wrong invite codes within the cool-off; deleting a client's rows
    lifts its lock at once."""

    list_display = ["at", "user_id", "address"]
    search_fields = ["address"]
    ordering = ["-at"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
