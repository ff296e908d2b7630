from django.urls import path

from . import views

app_name = "push"

urlpatterns = [
    path("subscribe/", views.subscribe, name="subscribe"),
    path("unsubscribe/", views.unsubscribe, name="unsubscribe"),
    path("devices/<int:subscription_id>/forget/", views.forget, name="forget"),
    path("games/<int:game_id>/mute/", views.mute, name="mute"),
]
