from django.urls import path

from . import views

app_name = "players"

# A user name holds no "/", so a player's own pages never shadow another's.
urlpatterns = [
    path("", views.search, name="search"),
    path("<str:username>/", views.profile, name="profile"),
    path("<str:username>/follow/", views.follow, name="follow"),
    path("<str:username>/unfollow/", views.unfollow, name="unfollow"),
]
