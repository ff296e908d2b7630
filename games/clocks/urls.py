"""URLs of the clocks (names in the "clocks" namespace)."""

from django.urls import path

from . import views

app_name = "clocks"

urlpatterns = [
    path("games/vacation/", views.vacation, name="vacation"),
    path("games/<int:game_id>/give-a-day/", views.give_a_day, name="give_day"),
    path("calendar/<int:user_id>/<str:token>.ics", views.calendar_feed, name="calendar"),
]
