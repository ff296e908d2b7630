"""Settings of the server bench/web.py starts: the site's own, plus one constant URL."""

from sefirot_site.settings import *  # noqa: F401,F403

ROOT_URLCONF = "bench.web_urls"
