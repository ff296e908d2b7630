"""URLs of play by mail (names in the "mail" namespace)."""

from django.urls import path

from . import views

app_name = "mail"

urlpatterns = [
    path("mailbox/", views.mailbox, name="mailbox"),
    path("mailbox/<str:key>/reply/", views.mailbox_reply, name="mailbox_reply"),
    path("mail/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
