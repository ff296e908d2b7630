from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import User
from .services import delete_account


@admin.register(User)
class SiteUserAdmin(UserAdmin):
    fieldsets = UserAdmin.fieldsets + (("Profile", {"fields": ("display_name", "time_zone", "turn_mail")}),)
    list_display = ("username", "email", "display_name", "turn_mail", "is_staff", "date_joined")
    search_fields = ("username", "email", "display_name")

    # A deletion here must do what the person's own deletion does (games resigned,
    # journal and its files removed, all or nothing), not just drop the row.
    def delete_model(self, request, obj):
        delete_account(obj)

    def delete_queryset(self, request, queryset):
        for user in queryset:
            delete_account(user)
