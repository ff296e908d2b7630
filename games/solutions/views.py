"""The solution page of a finished game: the solver's verdict on its deal, its progress
while it runs, and the winning line as a replay to step through.  Only the game's players;
anyone else gets 404 (``get_game_for``)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from games import views as game_views
from games.daily.models import Play
from games.engine.words import for_reader
from games.page_regions import worded
from games.registry import present

from .models import SolverJob
from .services import request_solve, solvable, verdict_for


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def solution(request, game_id):
    game, seat = game_views.get_game_for(request, game_id)
    daily = Play.objects.filter(game=game).select_related("deal").first()
    if daily is not None and game.is_over:
        # A daily deal is searched once for all its players; its results page says what
        # was found once the day is over (and nothing before).
        return redirect("daily:results", daily.deal.day.isoformat(), daily.deal.mode)
    if not solvable(game):
        raise Http404("The solver searches the finished games played alone or as a pair.")
    if request.method == "POST":
        # A game finished before the solver came to the site has no job yet: asked here.
        request_solve(game)
        return redirect("games:solution", game.pk)
    verdict = verdict_for(game)
    context = {"game": game, "seat": seat, "verdict": verdict}
    if verdict is None:
        return render(request, "games/solution.html", context)
    if verdict["status"] == SolverJob.Status.WON:
        context.update(_walk(request, game, seat))
    template = "games/solution.html"
    if request.htmx:
        # The poll asks for the whole verdict (with the walk once won); a step, the replay.
        template += "#replay" if "step" in request.GET else "#solution"
    return render(request, template, context)


def _walk(request, game, seat) -> dict:
    """The board after ``?step=N`` moves of the winning line, and the line in words."""
    line = game.solver_job.line or []
    raw = request.GET.get("step", "0")
    step = min(int(raw), len(line)) if raw.isdecimal() else 0
    rules = game.rules
    names = {s.index: s.player_name for s in game.seats.all()}
    state = rules.replay(game.seed, game.players, game.options, [])
    moves, shown = [], None
    for number, move in enumerate(line, 1):
        mover = rules.to_act(state)[0]
        # The game is over and its whole deal known: each move is told as its mover saw it.
        text = for_reader(rules.describe_move(state, mover, move), seat.index, names)
        who = "You" if mover == seat.index else names.get(mover, "?")
        moves.append({"number": number, "who": who, "text": text})
        state = rules.apply(state, mover, move)
        if number == step:
            shown = state
    if step == 0:
        shown = rules.replay(game.seed, game.players, game.options, [])
    return {"step": step, "total": len(line), "moves": moves,
            "current": moves[step - 1] if step else None,
            "show": worded(present(rules, shown, seat.index, interactive=False), seat.index, names)}
