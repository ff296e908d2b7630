"""Where a player switches Web Push on: their devices on the profile. (A game's mute switch
is fetched by the page itself, ``static/js/install.js``, on a device that takes pushes.)"""

from __future__ import annotations

from django import template

from games.push.models import PushSubscription
from games.push.vapid import public_key

register = template.Library()


@register.inclusion_tag("push/_devices.html", takes_context=True)
def push_devices(context):
    user = context["request"].user
    return {"devices": list(PushSubscription.objects.filter(user=user).order_by("created_at")),
            "public_key": public_key(), "csrf_token": context.get("csrf_token")}
