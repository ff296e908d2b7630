from django.urls import path

from . import rules_views, turn_views, views, watch_views
from .computer import views as computer_views
from .solutions import views as solution_views

app_name = "games"

urlpatterns = [
    path("", views.game_list, name="list"),
    path("new/", views.new_game, name="new"),
    path("lobby/", views.lobby, name="lobby"),
    path("watch/", watch_views.watch_list, name="watch"),
    path("rules/", rules_views.rules_index, name="rules"),
    path("rules/<slug:slug>/", rules_views.rules_page, name="rules_mode"),
    path("invitation/<str:token>/", views.invitation, name="invitation"),
    path("waiting/", turn_views.waiting, name="waiting"),
    path("<int:game_id>/", views.game_page, name="game"),
    path("<int:game_id>/version/", views.version, name="version"),
    path("<int:game_id>/move/", views.move, name="move"),
    path("<int:game_id>/accept-challenge/", views.accept_challenge, name="accept_challenge"),
    path("<int:game_id>/accept/", views.accept, name="accept"),
    path("<int:game_id>/decline/", views.decline, name="decline"),
    path("<int:game_id>/cancel/", views.cancel, name="cancel"),
    path("<int:game_id>/start-now/", views.start_now, name="start_now"),
    path("<int:game_id>/rematch/", views.rematch, name="rematch"),
    path("<int:game_id>/resign/", views.resign, name="resign"),
    path("<int:game_id>/preferences/", views.preferences, name="preferences"),
    path("<int:game_id>/chat/", views.chat, name="chat"),
    path("<int:game_id>/notes/", views.notes, name="notes"),
    path("<int:game_id>/history/", views.history, name="history"),
    path("<int:game_id>/record.json", views.record, name="record"),
    path("<int:game_id>/hint/", computer_views.hint, name="hint"),
    path("<int:game_id>/review/", computer_views.review, name="review"),
    path("<int:game_id>/solution/", solution_views.solution, name="solution"),
]
