"""URLs of play by mail and the clocks (names in the "mail" namespace)."""

from django.urls import path

from . import mail_views

app_name = "mail"

urlpatterns = [
    path("mailbox/", mail_views.mailbox, name="mailbox"),
    path("mailbox/<str:key>/reply/", mail_views.mailbox_reply, name="mailbox_reply"),
    path("games/vacation/", mail_views.vacation, name="vacation"),
    path("games/<int:game_id>/give-a-day/", mail_views.give_a_day, name="give_day"),
]
