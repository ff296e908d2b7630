from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.urls import include, path

from . import installable, views

# The admin's own login form bypassed allauth's throttle (40 wrong passwords, then the
# right one, logged in): send it to the site's login, as allauth's documentation advises.
admin.site.login = secure_admin_login(admin.site.login)

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    # At the root: a service worker's scope is at most the folder it is served from.
    path("sw.js", installable.service_worker, name="service_worker"),
    path("manifest.webmanifest", installable.manifest, name="manifest"),
    path("offline/", installable.offline, name="offline"),
    path("push/", include("games.push.urls")),
    path("accounts/", include("allauth.urls")),
    path("accounts/", include("sefirot_site.accounts.urls")),
    path("", include("games.mail.urls")),  # the development mailbox
    path("", include("games.clocks.urls")),  # vacation, give a day
    path("games/", include("games.urls")),
    path("players/", include("games.players.urls")),
    path("wizards/", include("games.wizards.urls")),
    path("daily/", include("games.daily.urls")),
    path("journal/", include("journal.urls")),
    path("admin/", admin.site.urls),
]
