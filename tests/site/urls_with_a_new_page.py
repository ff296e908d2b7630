"""The site's URLconf and one page more, whose argument no sample of every_page.py covers
(test_accessibility's spec of the message a new page without visit data gets)."""

from django.http import HttpResponse
from django.urls import include, path

from sefirot_site.urls import urlpatterns as site_patterns

new_page = ([path("calendar/<str:secret>.ics", lambda request, secret: HttpResponse(), name="calendar")], "games")
urlpatterns = [path("games/", include(new_page))] + site_patterns
