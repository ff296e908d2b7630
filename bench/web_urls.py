"""The site's URLs plus ``/bench/bare``: a constant response through the same middleware,
the floor that bench/web.py compares move requests with."""

from django.http import HttpResponse
from django.urls import include, path


def bare(request):
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [
    path("bench/bare", bare),
    path("", include("sefirot_site.urls")),
]
