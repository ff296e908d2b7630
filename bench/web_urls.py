"""The site's URLs plus two of the bench's own: ``/bench/bare``, a constant response
through the same middleware (the floor that bench/web.py compares move requests with),
and ``/bench/write/<game>``, a move played as the move view plays it but answered with
nothing (what the move's write costs before its answer is drawn)."""

import json

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.urls import include, path
from django.views.decorators.http import require_POST

from games import services


def bare(request):
    return HttpResponse("ok", content_type="text/plain")


@login_required
@require_POST
def write(request, game_id):
    services.submit_move(game_id, request.user, json.loads(request.POST["move"]), int(request.POST["version"]))
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [
    path("bench/bare", bare),
    path("bench/write/<int:game_id>", write),
    path("", include("sefirot_site.urls")),
]
