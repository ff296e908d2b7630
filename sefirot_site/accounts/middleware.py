import zoneinfo

from django.utils import timezone


class TimezoneMiddleware:
    """Show times in the logged-in user's own time zone."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            try:
                timezone.activate(zoneinfo.ZoneInfo(user.time_zone))
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                timezone.deactivate()
        else:
            timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            # The zone is thread-local: leave none behind for whatever runs next on this
            # thread (another request, or code that builds mail after a test request).
            timezone.deactivate()
