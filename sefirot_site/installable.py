"""The site as an app a phone can install: the web manifest, the service worker and the
page it shows offline.

The service worker (``templates/installable/sw.js``) is served from the site's root, so
its scope is every page. It keeps in its cache only what is the same for everyone: the
offline page and the static files it needs. Pages (a game, the journal) are never cached;
when the network is gone, a page asked for is answered by the offline page. It also shows
the site's Web Push notifications (``games.push``) and opens the game a click names.
"""

from __future__ import annotations

import hashlib

from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

# The light scheme's page ground and accent (static/css/site.css); the splash screen and
# the title bar of the installed app.
BACKGROUND, THEME = "#faf8f4", "#5a3f85"

# What the offline page needs, cached when the service worker installs.
OFFLINE_ASSETS = ("css/site.css", "icons/sefirot.svg", "icons/icon-192.png", "icons/icon-badge-96.png")


@require_GET
@cache_control(max_age=3600, public=True)
def manifest(request):
    icons = [{"src": static(f"icons/{name}"), "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
             for name, size, purpose in (("icon-192.png", 192, "any"), ("icon-512.png", 512, "any"),
                                         ("icon-maskable-192.png", 192, "maskable"),
                                         ("icon-maskable-512.png", 512, "maskable"))]
    return JsonResponse({
        "id": "/",
        "name": "Sefirot Online",
        "short_name": "Sefirot",
        "description": "Play the tarot card game Sefirot and its kin turn by turn, at your own pace.",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND,
        "theme_color": THEME,
        "icons": icons,
    }, content_type="application/manifest+json")


@require_GET
def service_worker(request):
    context = {
        "offline_url": reverse("offline"),
        "assets": [static(path) for path in OFFLINE_ASSETS],
        "icon": static("icons/icon-192.png"),
        "badge": static("icons/icon-badge-96.png"),
    }
    # The cache is named after what it holds, so a deploy that changes a file's address
    # (hashed static names) makes a new worker, which drops the old cache.
    context["version"] = hashlib.sha256(repr(sorted(context.items())).encode()).hexdigest()[:12]
    response = HttpResponse(render_to_string("installable/sw.js", context), content_type="text/javascript")
    # Browsers check for a new worker at most once a day anyway; no-cache makes them ask us.
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
@cache_control(max_age=3600, public=True)
def offline(request):
    """The same for everyone (it is cached), so drawn without the user or a CSRF token."""
    return render(request, "installable/offline.html", {"assets": OFFLINE_ASSETS})
