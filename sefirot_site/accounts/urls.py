from django.urls import path

from . import views

# Mounted under accounts/ next to allauth's own URLs (account_login, account_signup, ...).
urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("delete/", views.delete, name="account_delete"),
    path("calendar/renew/", views.renew_calendar, name="calendar_renew"),
    path("mail/try-again/", views.mail_try_again, name="mail_try_again"),
]
