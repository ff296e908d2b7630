"""The players' pages: thin views over ``queries`` (what a page reads) and ``services``
(following). A profile is open to anyone, signed in or not, unless its player keeps it
private: then others see the name alone. Searching and following need an account."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST
from django_ratelimit.core import get_usage

from games.computer import LEVELS
from games.daily import services as daily

from . import charts, queries, services

MAX_QUERY = 150


def get_player(username: str):
    """The active player of that user name (a name typed in another case leads to them)."""
    users = get_user_model().objects.filter(is_active=True)
    player = users.filter(username=username).first() or users.filter(username__iexact=username).first()
    if player is None:
        raise Http404("There is no player of that name.")
    return player


def _page(request) -> int:
    page = request.GET.get("page", "")
    return int(page) if page.isdecimal() and 0 < int(page) < 100_000 else 1


@require_GET
def profile(request, username):
    player = get_player(username)
    if player.username != username:
        return redirect("players:profile", username=player.username)
    own = request.user.is_authenticated and request.user.pk == player.pk
    context = {"player": player, "own": own, "private": player.profile_private and not own,
               "level": LEVELS.get(player.computer_level)}
    if not context["private"]:
        rated = queries.ratings(player)
        context.update(record=queries.record(player), recent=queries.recent_games(player, public_only=not own),
                       streak=daily.streaks(player),
                       ratings=[{**r, "chart": charts.rating_chart(r["changes"], r["title"])} for r in rated],
                       following=queries.follows(request.user, player))
    return render(request, "players/profile.html", context)


@login_required
@require_GET
def search(request):
    """Players found by name (``q``), or, without one, the players you follow."""
    text = request.GET.get("q", "").strip()
    page = _page(request)
    context = {"q": text, "page": page}
    status = 200
    if len(text) > MAX_QUERY:
        context["refusal"] = f"Search for at most {MAX_QUERY} characters of a name."
        status = 400
    elif text:
        usage = get_usage(request, group="games.players.search", key="user",
                          rate=f"{settings.PLAYER_SEARCHES_PER_MINUTE}/m", increment=True)
        if usage is not None and usage["should_limit"]:
            context["refusal"] = "That is a lot of searches in a minute: wait a moment, then search again."
            status = 429
        else:
            context["found"], more = queries.search(text, request.user, page)
            context["more_page"] = page + 1 if more else None
    else:
        context["followed"], more = queries.following(request.user, page)
        context["more_page"] = page + 1 if more else None
    return render(request, "players/search.html", context, status=status)


def _follow_answer(request, player, *, following: bool, refusal: str = "", status: int = 200):
    if request.htmx:
        return render(request, "players/_follow.html", {"player": player, "following": following,
                                                        "refusal": refusal, "back": request.POST.get("next", "")},
                      status=status)
    if refusal:
        return render(request, "players/refused.html", {"player": player, "refusal": refusal}, status=status)
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        back = reverse("players:profile", args=[player.username])
    return redirect(back)


@login_required
@require_POST
def follow(request, username):
    player = get_player(username)
    try:
        services.follow(request.user, player)
    except services.FollowRefused as refused:
        return _follow_answer(request, player, following=False, refusal=refused.message, status=400)
    return _follow_answer(request, player, following=True)


@login_required
@require_POST
def unfollow(request, username):
    player = get_player(username)
    services.unfollow(request.user, player)
    return _follow_answer(request, player, following=False)
