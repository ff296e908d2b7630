"""The computer's advice in the games played alone: a hint on the game page, a review
after the game.  Only the seat's player; anyone else gets 404 (``get_game_for``)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from games import page_regions
from games import views as game_views

from games.bots.advice import MARKS, summary

from .advice import NoAdvice, hint_for, offers_advice, request_review
from .models import Review


@login_required
@require_POST
def hint(request, game_id):
    game, seat = game_views.get_game_for(request, game_id)
    status, notice, message = 200, "", ""
    try:
        notice = hint_for(game, seat)
    except NoAdvice as refusal:
        status, message = 400, refusal.message
    context = page_regions.game_context(request, game, seat, notice=notice, message=message)
    if request.htmx:
        return page_regions.regions_response(request, context, status=status)
    return page_regions.render_page(request, context, status=status)


@login_required
def review(request, game_id):
    game, seat = game_views.get_game_for(request, game_id)
    if not offers_advice(game):
        raise Http404("Reviews are made of the games played alone.")
    if request.method == "POST":
        try:
            request_review(game)
        except NoAdvice as refusal:
            return render(request, "games/review.html", {"game": game, "message": refusal.message},
                          status=400)
        return redirect("games:review", game.pk)
    return _show(request, game)


@require_GET
def _show(request, game):
    found = Review.objects.filter(game=game).first()
    rows = found.rows if found and found.status == Review.Status.DONE else []
    return render(request, "games/review.html", {
        "game": game, "review": found, "rows": rows, "summary": summary(rows),
        "differences": sum(1 for r in rows if r["differs"]),
        "thresholds": {name: round(100 * drop) for name, drop in MARKS},
        "can_ask": found is None and game.status == game.Status.FINISHED,
    })
