"""``manage.py check --deploy``: production settings that Django's own checks let pass."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Tags, Warning, register


@register(Tags.security, deploy=True)
def check_site_settings(app_configs, **kwargs):
    found = []
    if settings.SITE_URL.startswith("http://"):
        found.append(Warning(
            f"SITE_URL is {settings.SITE_URL}: links in mail (sign-in, password reset, reply pages) "
            "would travel unencrypted.", hint="Serve the site over HTTPS and set SITE_URL=https://...",
            id="sefirot.W001"))
    if "*" in settings.ALLOWED_HOSTS:
        found.append(Warning(
            "ALLOWED_HOSTS contains '*': any Host header is believed, so password-reset links can be "
            "made to point elsewhere.", hint="List the site's own host names.", id="sefirot.W002"))
    return found
