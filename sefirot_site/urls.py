from django.contrib import admin
from django.urls import include, path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("accounts/", include("allauth.urls")),
    path("accounts/", include("sefirot_site.accounts.urls")),
    path("", include("games.mail.urls")),  # the development mailbox
    path("", include("games.clocks.urls")),  # vacation, give a day
    path("games/", include("games.urls")),
    path("wizards/", include("games.wizards.urls")),
    path("journal/", include("journal.urls")),
    path("admin/", admin.site.urls),
]
