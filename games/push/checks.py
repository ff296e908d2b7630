"""``manage.py check``: a VAPID key given in the environment must be one, found at start-up
rather than at the first push (the settings module does not parse keys)."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Error, register
from django.core.exceptions import ImproperlyConfigured


@register()
def check_vapid_key(app_configs, **kwargs):
    if not settings.VAPID_PRIVATE_KEY:
        return []
    from games.push.vapid import _from_setting

    try:
        _from_setting(settings.VAPID_PRIVATE_KEY)
    except ImproperlyConfigured as error:
        return [Error(str(error), id="sefirot.E101")]
    return []
