"""/daily/: today's three deals, the play button, and each deal's results for those who
finished it.  Thin views: a service call that checks who asks, then a render; a refusal
is the page again with its message and a 4xx."""

from __future__ import annotations

import base64
import datetime as dt

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from games.engine import get_rules

from . import services
from .models import Deal


def _context(request, **extra) -> dict:
    user = request.user if request.user.is_authenticated else None
    return {"rows": services.today_for(user), "day": services.today(),
            "streak": services.streaks(user) if user else None, "section": "daily", **extra}


@require_GET
def today(request):
    return render(request, "daily/index.html", _context(request))


@login_required
@require_POST
def play(request, mode):
    try:
        game = services.start(request.user, mode)
    except services.DailyError as refusal:
        return render(request, "daily/index.html", _context(request, message=refusal.message),
                      status=refusal.status)
    return redirect(game)


def _deal(day: str, mode: str) -> Deal:
    try:
        date = dt.date.fromisoformat(day)
    except ValueError:
        raise Http404("No such day.") from None
    deal = Deal.objects.filter(day=date, mode=mode, mode__in=services.MODES).first()
    if deal is None:
        raise Http404("Nobody has played a deal of that game on that day.")
    return deal


def duration(seconds: int | None) -> str:
    if seconds is None:
        return "–"
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes:02d} min"
    return f"{minutes} min {secs:02d} s" if minutes else f"{secs} s"


def _seal_image(svg: str) -> str:
    # A data: URL for an <img>: nothing in the SVG can run as script.
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


@login_required
@require_GET
def results(request, day, mode):
    deal = _deal(day, mode)
    title = get_rules(deal.mode).title
    try:
        play = services.finished_play(request.user, deal)
    except services.DailyError as refusal:
        return render(request, "daily/results.html", {"deal": deal, "title": title, "refusal": refusal.message,
                                                      "section": "daily"}, status=refusal.status)
    board = [{"rank": n, "play": p, "you": p.user_id == request.user.pk, "time": duration(p.seconds)}
             for n, p in enumerate(services.leaderboard(deal), 1)]
    readings = [{"play": p, "image": _seal_image(p.seal_svg)} for p in services.shared_readings(deal)]
    return render(request, "daily/results.html", {
        "deal": deal, "title": title, "play": play, "board": board, "readings": readings,
        "day_over": deal.day < services.today(), "variant_text": services.DealRow(deal, title, play).variant_text,
        "share_url": reverse("daily:share", args=[deal.day.isoformat(), deal.mode]), "section": "daily",
    })


@login_required
@require_POST
def share(request, day, mode):
    deal = _deal(day, mode)
    try:
        services.set_shared(request.user, deal, request.POST.get("shared") == "1")
    except services.DailyError as refusal:
        return render(request, "daily/results.html", {"deal": deal, "title": get_rules(deal.mode).title,
                                                      "refusal": refusal.message, "section": "daily"},
                      status=refusal.status)
    return redirect("daily:results", deal.day.isoformat(), deal.mode)
