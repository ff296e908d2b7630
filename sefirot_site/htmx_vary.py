"""Pages answer htmx with their regions alone and a browser with the whole page, at the
same address (DEVELOPERS.md: one template, ``#region`` when ``request.htmx``).  Without
``Vary: HX-Request`` the browser's cache holds whichever answer came last for the
address, and going Back to a page whose regions htmx had just fetched showed those bare
regions as the page: no header, no stylesheet (issue 38).  Every answer says it varies
on the header, so the cache keeps the two apart: set here once rather than view by view,
as nearly every page draws both."""

from __future__ import annotations

from django.utils.cache import patch_vary_headers


class VaryOnHtmxMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        patch_vary_headers(response, ("HX-Request",))
        return response
