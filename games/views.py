"""The game pages: thin views over ``games.services`` (changes) and ``games.presenters``
(what a seat sees), drawn and answered by ``games.page_regions`` (what the page holds
and which of its regions an answer sends).  Every view starts with ``get_game_for``, so
a user without a seat in a game gets 404 from every URL of it, as if it did not exist;
but anyone may look at a public game as a spectator (``games.access``): its page, its poll
and its history, drawn for no seat."""

from __future__ import annotations

import json
import logging
import re

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from games import listing, services
from games.access import NO_SEAT, get_game_for, login_unless_watchable, seat_in
from games.clocks import deadlines
from games.computer.answer import play_quick_answers
from games.engine import IllegalMove
from games.engine.words import as_seen_by, for_reader
from games.forms import ChatForm, NewGameForm, NoteForm
from games.turns import turn_count
from games.models import ChatMessage, Game, Note, Seat
from games.page_regions import (LOG_WINDOW, SPECTATOR, game_context, holds_digests, log_limit,
                                poll_stamp, regions_response, render_page, worded)
from games.registry import present
from sefirot_site.prepared import PreparedQuery

logger = logging.getLogger(__name__)


# --- lists and starting ------------------------------------------------------------------


@login_required
@require_GET
def game_list(request):
    # The games in play in full, the finished ones a page at a time: "More finished games"
    # asks for the next page's rows by htmx, or opens the page with them without it.
    page = request.GET.get("page", "")
    page = int(page) if page.isdecimal() and 0 < int(page) < 100_000 else 1
    finished, more = listing.finished(request.user, page)
    context = {"finished": finished, "page": page, "more_page": page + 1 if more else None}
    if request.htmx and "page" in request.GET:
        return render(request, "games/list.html#finished_rows", context)
    return render(request, "games/list.html", {
        **context, **listing.in_play(request.user), **listing.followed(request.user),
        "vacation": deadlines.open_vacation(request.user.pk),
    })


@login_required
def new_game(request):
    # A link may choose the game or whom to play (a player page's "Invite to a game").
    form = NewGameForm(request.POST or None, user=request.user, initial={
        name: request.GET[name] for name in ("mode", "opponent", "username", "computer_level")
        if request.GET.get(name)} or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            if data.get("table"):  # more than two seats
                game = services.start_game(request.user, data["mode"], form.game_options(),
                                           time_control=data.get("time_control"), seats=data["seats"],
                                           invitees=data["table_invitees"], creator_looking=True,
                                           public=not data.get("private"),
                                           creator_plays=data.get("creator_plays", True))
            else:
                game = services.start_game(
                    request.user, data["mode"], form.game_options(),
                    opponent=data.get("opponent_user") if data["opponent"] in ("user", "computer") else None,
                    invite_email=data["email"] if data["opponent"] == "email" else "",
                    open_challenge=data["opponent"] == "open",
                    time_control=data.get("time_control"), creator_looking=True, public=not data.get("private"),
                )
        except services.GameError as error:
            form.add_error(None, error.message)
        else:
            return redirect(game)
    return render(request, "games/new.html", {"form": form, "modes": form.modes, "table_modes": [
                      f"{m['title']} ({m['players']})" for m in form.modes if m["max_players"] > 2]},
                  status=400 if form.errors else 200)


@login_required
@require_GET
def lobby(request):
    # Games of several seats may have open seats while invitations are still out.
    challenges = (
        Game.objects.filter(status__in=Game.WAITING, seats__status=Seat.Status.OPEN).distinct()
        .select_related("created_by").prefetch_related("seats")
        .defer("state")
        .order_by("-created_at")[:100]
    )
    return render(request, "games/lobby.html", {"challenges": challenges})


@login_required
@require_POST
def accept_challenge(request, game_id):
    game = get_object_or_404(Game.objects.filter(seats__status=Seat.Status.OPEN).distinct(), pk=game_id,
                             status__in=Game.WAITING)
    try:
        services.accept_challenge(game.pk, request.user)
    except services.GameError as error:
        messages.error(request, error.message)
        return redirect("games:lobby")
    return redirect(game)


def invitation(request, token):
    """The link of an invitation mail: accept or decline, after logging in or signing up."""
    if not TOKEN.fullmatch(token):
        # Not one of ours (new_token makes these characters only); PostgreSQL would also
        # refuse a NUL in the query with a 500.
        raise Http404("There is no such invitation.")
    seat = get_object_or_404(
        Seat.objects.select_related("game", "game__created_by"),
        invite_token=token, status=Seat.Status.INVITED, game__status=Game.Status.INVITED,
    )
    game = seat.game
    if not request.user.is_authenticated:
        # Remembered so that logging in or signing up in this session takes the seat.
        pending = request.session.get("game_invitations", [])
        if token not in pending:
            request.session["game_invitations"] = pending + [token]
        return render(request, "games/invitation.html", {"game": game, "seat": seat, "token": token})
    if request.method == "POST":
        try:
            if request.POST.get("answer") == "decline":
                services.decline_invitation(game.pk, request.user, token)
                messages.info(request, "You declined the invitation.")
                return redirect("games:list")
            services.accept_invitation(game.pk, request.user, token)
        except services.GameError as error:
            messages.error(request, error.message)
            return redirect("games:list")
        return redirect(game)
    return render(request, "games/invitation.html", {"game": game, "seat": seat, "token": token})


def _answer(request, game_id, action, success: str | None = None, to_list: bool = False):
    try:
        game = action()
    except services.GameError as error:
        messages.error(request, error.message)
        return redirect("games:game", game_id)
    if success:
        messages.info(request, success)
    return redirect("games:list") if to_list else redirect(game)


@login_required
@require_POST
def accept(request, game_id):
    get_game_for(request, game_id, joined=False)
    return _answer(request, game_id, lambda: services.accept_invitation(game_id, request.user))


@login_required
@require_POST
def decline(request, game_id):
    get_game_for(request, game_id, joined=False)
    return _answer(request, game_id, lambda: services.decline_invitation(game_id, request.user),
                   "You declined the invitation.", to_list=True)


@login_required
@require_POST
def cancel(request, game_id):
    get_game_for(request, game_id)
    return _answer(request, game_id, lambda: services.cancel_game(game_id, request.user),
                   "The game was cancelled.", to_list=True)


@login_required
@require_POST
def start_now(request, game_id):
    """The creator of a game of several seats starts it with the players seated so far."""
    get_game_for(request, game_id)
    return _answer(request, game_id, lambda: services.start_with_seated(game_id, request.user))


@login_required
@require_POST
def rematch(request, game_id):
    get_game_for(request, game_id)
    return _answer(request, game_id, lambda: services.rematch(game_id, request.user, creator_looking=True))


@login_required
@require_POST
def resign(request, game_id):
    game, _ = get_game_for(request, game_id)
    if services.takes_over(game):
        # The seat is no longer theirs (they may still watch the game): back to the list.
        return _answer(request, game_id, lambda: services.resign(game_id, request.user),
                       "You left the game; a computer player of the house plays your seat on.", to_list=True)
    return _answer(request, game_id, lambda: services.resign(game_id, request.user))


# --- the game page ---------------------------------------------------------------------------


@login_unless_watchable
@require_GET
def game_page(request, game_id):
    game, seat = get_game_for(request, game_id, joined=False, left=True, watch=True)
    if seat.status not in (Seat.Status.JOINED, *NO_SEAT):
        if seat.status == Seat.Status.INVITED and game.status == Game.Status.INVITED:
            return render(request, "games/invitation.html", {"game": game, "seat": seat, "token": None})
        raise Http404("No such game.")
    if seat.status == Seat.Status.JOINED:
        mark_seen(seat)
    pick = request.GET.get("pick", request.GET.get("picked"))  # a click wins over the page's memory
    context = game_context(request, game, seat, pick=None if pick in ("", "none") else pick)
    if request.htmx:
        return regions_response(request, context)
    return render_page(request, context)


def mark_seen(seat: Seat) -> None:
    """The player is looking at the game now (games.mail.tasks holds turn mail meanwhile);
    written at most every ten seconds, so polling costs no write most of the time."""
    now = timezone.now()
    if seat.seen_at is None or (now - seat.seen_at).total_seconds() > 10:
        Seat.objects.filter(pk=seat.pk).update(seen_at=now)
        seat.seen_at = now


# Polled every few seconds by every open page: compiled once (sefirot_site.prepared).
_POLLED_SEAT = PreparedQuery(
    lambda game_id, user_id: Seat.objects.select_related("game")
    .filter(game_id=game_id, user=user_id, status=Seat.Status.JOINED)
    .annotate(**services.newest_ids("game_id")).order_by("pk")[:1], 2)


def _seat_for_poll(request, game_id) -> Seat:
    """The user's joined seat with its game, in one query (with the newest chat line's and
    clock event's ids the stamp needs); 404 for anyone else."""
    if not request.user.is_authenticated:
        raise Http404("No such game.")  # a spectator not logged in: no seat to find (nor a departed one)
    seat = next(iter(_POLLED_SEAT(game_id, request.user.pk)), None)
    if seat is None:
        raise Http404("No such game.")
    for name in services.NEWEST:
        setattr(seat.game, name, getattr(seat, name))
    return seat


@login_unless_watchable
@require_GET
def version(request, game_id):
    """Tiny and cheap: 204 while nothing changed, else an htmx event that refreshes the page."""
    try:
        seat = _seat_for_poll(request, game_id)
    except Http404:
        # Who left the table, watches computer players or is a spectator follows it without
        # a seat (the rarer case, so the slower load).
        game, seat = get_game_for(request, game_id, left=True, watch=True)
        if seat.status not in NO_SEAT:
            raise
    else:
        game = seat.game
        mark_seen(seat)
    if request.GET.get("v") != poll_stamp(game):
        if holds_digests(request):
            # The fast poll sends the digests of the page's regions (a computer player was
            # thinking, game_parts.POLL_FAST): the regions that changed come in this answer,
            # a round trip sooner than the event below and the page's fetch that follows it.
            return game_page(request, game_id)
        response = HttpResponse(status=200)
        response["HX-Trigger"] = "game-changed"  # the page fetches its regions, and the count with them
        return response
    # Every poll also brings the count of games waiting for this player (the title and the
    # navigation's badge, updated by game.js): a move in another game shows up too.
    response = HttpResponse(status=204)
    if request.user.is_authenticated:
        response["HX-Trigger"] = json.dumps({"turn-count": {"value": turn_count(request.user)}})
    return response


TOKEN = re.compile(r"[A-Za-z0-9_-]{16,100}")
MOVE_FIELD_LIMIT = 2000  # characters; a real move is a few dozen


def read_move_field(text: str) -> dict:
    """The move a form posted, or ValueError. A move is a flat object of strings, whole
    numbers and lists of them (ENGINE.md); anything else, however deep or long, is
    refused here, before json or the engine could trip on it (a 500 before)."""
    if len(text) > MOVE_FIELD_LIMIT:
        raise ValueError("too long")
    try:
        chosen = json.loads(text)
    except RecursionError:
        raise ValueError("nested too deep") from None
    if not isinstance(chosen, dict):
        raise ValueError("not an object")

    def flat(value):
        return isinstance(value, (str, int)) and not isinstance(value, bool)

    for value in chosen.values():
        if not (flat(value) or isinstance(value, list) and all(flat(item) for item in value)):
            raise ValueError("not a move's shape")
    return chosen


@login_required
@require_POST
def move(request, game_id):
    """A move: the service loads the game once, under its lock, and the answer is drawn
    from that same game as the move left it; only a refused move loads it again."""
    status, message, confirm, game = 200, "", None, None
    count_turns = True
    try:
        expected = int(request.POST.get("version", ""))
        chosen = read_move_field(request.POST.get("move", ""))
    except ValueError:
        status, message = 400, "That move could not be read; please choose it again on the board."
    else:
        try:
            newest_moves = LOG_WINDOW if request.htmx and log_limit(request) == LOG_WINDOW else 0
            record = services.submit_move(game_id, request.user, chosen, expected,
                                          confirmed=bool(request.POST.get("confirmed")), newest_moves=newest_moves)
        except services.NeedsConfirmation as ask:
            confirm = {"move": request.POST["move"], "version": expected, "label": ask.label}
            game, seat = ask.game, ask.seat
        except services.NotYourSeat:
            raise Http404("No such game.") from None
        except IllegalMove as error:
            status, message = 400, str(error)
        except services.GameError as error:
            status, message = error.status, error.message
        except (ValueError, TypeError, KeyError, IndexError):
            # A move so malformed that the engine tripped over it before it could
            # refuse it: nothing was written (the transaction rolled back).
            logger.exception("move %r on game %s", chosen, game_id)
            status, message = 400, "That move is not possible here."
        else:
            # A quick computer's answer is played here, the move committed: the answer (or
            # the page the redirect opens) comes with it, a round trip sooner
            # (games.computer.answer).  None: the worker played it; loaded again below.
            game = play_quick_answers(record.game, newest_moves=newest_moves)
            if not request.htmx:
                return redirect(record.game)
            if game is not None:
                # Only a seat asked to act can move, so while it is still asked (a solo
                # game, a turn of several moves) this game counts as it did among those
                # waiting for the player, and the count the page shows stands (its polling
                # brings changes made elsewhere): no query for it.
                seat = seat_in(game, request.user)
                count_turns = not (game.status == Game.Status.ACTIVE and seat.index in game.to_act)
    if game is None:
        game, seat = get_game_for(request, game_id)
    context = game_context(request, game, seat, message=message, confirm=confirm)
    if request.htmx:
        return regions_response(request, context, status, count_turns=count_turns)
    return render_page(request, context, status=status)


@login_required
@require_POST
def preferences(request, game_id):
    game, seat = get_game_for(request, game_id)
    seat.confirm_moves = request.POST.get("confirm_moves") == "on"
    seat.save(update_fields=["confirm_moves"])
    saved = "Saved: " + ("moves that draw cards will ask once more." if seat.confirm_moves
                         else "moves are sent at once.")
    if request.htmx:
        return regions_response(request, game_context(request, game, seat, notice=saved))
    messages.info(request, saved)
    return redirect(game)


@login_required
@require_POST
def chat(request, game_id):
    game, seat = get_game_for(request, game_id)
    if game.players < 2:
        raise Http404("A solo game has no chat.")
    form = ChatForm(request.POST)
    status, message = 200, ""
    if form.is_valid():
        line = ChatMessage.objects.create(game=game, seat=seat.index, user=request.user,
                                          text=form.cleaned_data["text"])
        game.last_chat_id = line.pk  # the game was loaded before it: its chat digest moves on
    else:
        status, message = 400, "; ".join(e for errs in form.errors.values() for e in errs)
    if not request.htmx:
        if status == 400:
            messages.error(request, message)
        return redirect(reverse("games:game", args=[game.pk]) + "#chat")
    return regions_response(request, game_context(request, game, seat, message=message), status)


@login_required
@require_POST
def notes(request, game_id):
    game, _ = get_game_for(request, game_id, left=True)  # one's own notes, also on a game left
    note = Note.objects.filter(game=game, user=request.user).first() or Note(game=game, user=request.user)
    form = NoteForm(request.POST, instance=note)
    saved = form.is_valid()
    if saved:
        form.save()
    if request.htmx:
        return render(request, "games/game.html#notes",
                      {"game": game, "note_form": form, "notes_saved": saved}, status=200 if saved else 400)
    messages.info(request, "Notes saved." if saved else "The notes could not be saved.")
    return redirect(game)


# --- after the game -------------------------------------------------------------------------


@login_unless_watchable
@require_GET
def history(request, game_id):
    """Step through a finished game: the board after each move, as this seat saw it (a
    spectator: as no seat sees it, the moves' words told as the game's end shows them)."""
    game, seat = get_game_for(request, game_id, left=True, watch=True)
    if not game.is_over or game.started_at is None:
        raise Http404("The history of a game opens when it has ended.")
    records = list(game.moves.all())
    try:
        step = min(max(int(request.GET.get("step", len(records))), 0), len(records))
    except ValueError:
        step = len(records)
    rules = game.rules
    state = rules.replay(game.seed, game.players, game.options, [(m.seat, m.move) for m in records[:step]])
    names = {s.index: s.player_name for s in game.seats.all()}
    said = [as_seen_by(m.description, m.seat == seat.index) for m in records]
    if seat.status in NO_SEAT:
        # A player's own words may name a card of their hand, never shown to anyone else
        # (nor to a watcher of computer players, nor to a player who left).
        said = rules.log_for(rules.view(game.load_state(), None), None, [(m.seat, m.description) for m in records])
    moves = [{"number": m.number, "who": names.get(m.seat, "?"), "text": for_reader(text, seat.index, names)}
             for m, text in zip(records, said)]
    # A seat the house took over, after the move it followed (its step shows the board then).
    for line in reversed(services.taken_over_lines(game, seat.user_id)):
        moves.insert(line["version"], {"number": line["version"], "who": line["who"], "text": line["text"]})
    context = {
        "game": game, "seat": seat, "step": step, "total": len(records), "spectator": seat.status == SPECTATOR,
        "show": worded(present(rules, state, seat.index, interactive=False), seat.index, names),
        "current": next((m for m in moves if m["number"] == step), None) if step else None,
        "moves": moves,
    }
    template = "games/history.html"
    if request.htmx:
        template += "#replay"
    return render(request, template, context)


@login_required
@require_GET
def record(request, game_id):
    """The game's record (seed, options, moves) as JSON, once nothing in it is secret."""
    game, _ = get_game_for(request, game_id, left=True)
    if not game.is_over or game.started_at is None:
        raise Http404("The record can be downloaded once the game has ended.")
    data = {
        "game": game.mode, "title": game.title, "id": game.pk, "status": game.status,
        "seed": game.seed, "players": game.players, "options": game.options,
        "seats": [{"index": s.index, "player": s.player_name} for s in game.seats.all()],
        "started_at": game.started_at.isoformat() if game.started_at else None,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        "outcome": game.outcome,
        "moves": [{"number": m.number, "seat": m.seat, "move": m.move, "description": m.description,
                   "at": m.created_at.isoformat()} for m in game.moves.all()],
    }
    response = JsonResponse(data, json_dumps_params={"indent": 2, "ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="sefirot-{game.mode}-{game.pk}.json"'
    return response
