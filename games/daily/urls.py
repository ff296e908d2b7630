from django.urls import path, re_path

from . import views

app_name = "daily"

DAY = r"(?P<day>\d{4}-\d{2}-\d{2})"

urlpatterns = [
    path("", views.today, name="today"),
    path("play/<slug:mode>/", views.play, name="play"),
    re_path(rf"^{DAY}/(?P<mode>[a-z_]+)/$", views.results, name="results"),
    re_path(rf"^{DAY}/(?P<mode>[a-z_]+)/share/$", views.share, name="share"),
]
