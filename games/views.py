"""The game pages: thin views over ``games.services`` (changes) and ``games.presenters``
(what a seat sees).  Every view starts with ``get_game_for``, so a user without a seat in
a game gets 404 from every URL of it, as if it did not exist."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import re

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from games import services
from games.clocks import deadlines
from games.engine import IllegalMove
from games.engine.words import as_seen_by, for_reader
from games.forms import ChatForm, NewGameForm, NoteForm
from games.turns import turn_count
from games.models import ChatMessage, Game, GameEvent, Note, Seat
from games.registry import present

logger = logging.getLogger(__name__)

# The regions of the game page, each a {% partialdef %} of games/game.html.  htmx requests
# get back only the regions whose HTML differs from what the page shows (it sends a hash
# of each), swapped out of band.
REGIONS = ("status", "board", "planes", "hand", "log", "chat", "actions", "poll")
_CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')


def get_game_for(request, game_id: int, *, joined: bool = True, left: bool = False) -> tuple[Game, Seat]:
    """The game and the requesting user's seat in it; 404 for anyone without a seat.
    With ``left``, a player whose seat the house took over gets an unsaved seat without
    an index (status ``LEFT``): they look on as a spectator would."""
    game = get_object_or_404(Game.objects.prefetch_related("seats__user"), pk=game_id)
    seat = next((s for s in game.seats.all() if s.user_id == request.user.pk), None)
    if seat is None and left and services.left_game_for(game, request.user):
        return game, Seat(game=game, index=None, user=request.user, status=LEFT)
    if seat is None or (joined and seat.status != Seat.Status.JOINED):
        raise Http404("No such game.")
    return game, seat


# The status of the unsaved seat of a player who left (never stored): read-only.
LEFT = "left"


# --- lists and starting ------------------------------------------------------------------


@login_required
@require_GET
def game_list(request):
    seats = (
        Seat.objects.filter(user=request.user)
        .exclude(status=Seat.Status.DECLINED)
        .select_related("game", "game__paused_clock")
        .prefetch_related("game__seats__user")
        .order_by("-game__updated_at")
    )
    my_turn, waiting, invitations, finished = [], [], [], []
    for seat in seats[:500]:
        game = seat.game
        entry = {"game": game, "seat": seat, "others": [s for s in game.seats.all() if s.pk != seat.pk],
                 "result": game.result_for(seat.index)}
        if seat.status == Seat.Status.INVITED and game.status == Game.Status.INVITED:
            invitations.append(entry)
        elif game.status == Game.Status.ACTIVE and seat.index in game.to_act:
            my_turn.append(entry)
        elif game.status in (Game.Status.ACTIVE, *Game.WAITING):
            waiting.append(entry)
        elif game.started_at is not None:  # cancelled and declined games never started
            finished.append(entry)
    # Tables the player left (the house plays their seat on) stay among their finished games.
    for game in services.games_left_by(request.user)[:100]:
        finished.append({"game": game, "others": [s for s in game.seats.all()], "result": "you left"})
    # Most urgent first: the nearest deadline, then the longest waiting.
    my_turn.sort(key=lambda e: (e["game"].deadline is None, e["game"].deadline or e["game"].updated_at))
    return render(request, "games/list.html", {
        "invitations": invitations, "my_turn": my_turn, "waiting": waiting, "finished": finished[:100],
        "vacation": deadlines.open_vacation(request.user.pk),
    })


@login_required
def new_game(request):
    form = NewGameForm(request.POST or None, user=request.user,
                       initial={"mode": request.GET.get("mode")} if request.GET.get("mode") else None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            if data.get("table"):  # more than two seats
                game = services.start_game(request.user, data["mode"], form.game_options(),
                                           time_control=data.get("time_control"), seats=data["seats"],
                                           invitees=data["table_invitees"])
            else:
                game = services.start_game(
                    request.user, data["mode"], form.game_options(),
                    opponent=data.get("opponent_user") if data["opponent"] in ("user", "computer") else None,
                    invite_email=data["email"] if data["opponent"] == "email" else "",
                    open_challenge=data["opponent"] == "open",
                    time_control=data.get("time_control"),
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
    return _answer(request, game_id, lambda: services.rematch(game_id, request.user))


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


def poll_stamp(game: Game) -> str:
    """Changes whenever the page of the game would: a move, an end, a chat line, or a
    deadline that moved (a day given, a clock paused for a vacation or running again)."""
    last_chat = game.chat.order_by("-pk").values_list("pk", flat=True).first() if game.players > 1 else 0
    stamp = f"{game.version}.{game.status}.{last_chat or 0}"
    if game.time_control is not None:
        stamp += f".{int(game.deadline.timestamp()) if game.deadline else 'paused'}"
        # A day given to a paused clock moves no deadline, but the log shows it.
        stamp += f".{game.events.order_by('-pk').values_list('pk', flat=True).first() or 0}"
    elif game.players > 2:
        # A seat the house took over changes the names and the log, not the version.
        stamp += f".{game.events.order_by('-pk').values_list('pk', flat=True).first() or 0}"
    return stamp


def _worded(show, seat_index: int, names: dict[int, str]):
    """The presenter's texts (prompt, labels, events, titles) with the engine's "Seat N"
    as "you" or the player's name; the seat's raw view is left as it is."""
    def words(value):
        if isinstance(value, str):
            return for_reader(value, seat_index, names) if "eat " in value else value
        if isinstance(value, list):
            return [words(v) for v in value]
        if isinstance(value, tuple):
            return tuple(words(v) for v in value)
        if isinstance(value, dict):
            return {k: words(v) for k, v in value.items()}
        return value

    for name in (f.name for f in dataclasses.fields(show) if f.name != "view"):
        setattr(show, name, words(getattr(show, name)))
    return show


def _log_for(game: Game, seat: Seat, view: dict) -> list[dict]:
    """The move log in words, where a card this seat cannot see now is told as "a card"
    (another seat's discard from hand, a card put back into the deck): the log never
    tells more than the board does.  Clock events (a day given) come in among the moves,
    after the move they followed, without a move number."""
    names = {s.index: s.player_name for s in game.seats.all()}
    records = list(game.moves.all())
    said = game.rules.log_for(view, seat.index, [(record.seat, record.description) for record in records])
    entries = []
    for record, text in zip(records, said):
        entries.append({"number": record.number, "who": names.get(record.seat, f"Seat {record.seat + 1}"),
                        "mine": record.seat == seat.index, "text": for_reader(text, seat.index, names),
                        "at": record.created_at, "order": (record.number, 0)})
    for event in game.events.filter(kind=GameEvent.Kind.DAY_GIVEN):
        receivers = " and ".join("you" if i == seat.index else names.get(i, f"Seat {i + 1}")
                                 for i in event.to_seats) or "the other player"
        entries.append({"number": None, "event": True, "who": names.get(event.seat, f"Seat {event.seat + 1}"),
                        "mine": event.seat == seat.index, "text": f"gave {receivers} a day more for this move.",
                        "at": event.created_at, "order": (event.version, 1)})
    for line in services.taken_over_lines(game, seat.user_id):
        entries.append({"number": None, "event": True, **line, "order": (line["version"], 1)})
    entries.sort(key=lambda entry: entry["order"])  # stable: events of one version keep their order
    return entries


def game_context(request, game: Game, seat: Seat, *, pick: str | None = None, message: str = "",
                 notice: str = "", confirm: dict | None = None) -> dict:
    rules = game.rules
    state = game.load_state()
    started = game.status == Game.Status.ACTIVE or (game.is_over and game.started_at is not None)
    left = seat.status == LEFT
    show = present(rules, state, seat.index, pick=pick, interactive=game.status == Game.Status.ACTIVE and not left)
    seats = list(game.seats.all())
    # The engine's words name seats; the page names players, and the reader is "you".
    names = {s.index: s.player_name for s in seats}
    show = _worded(show, seat.index, names)
    to_act = list(game.to_act) if game.status == Game.Status.ACTIVE else []
    my_turn = seat.index in to_act
    if left and game.status == Game.Status.ACTIVE:
        turn = "You left this game; the house plays your seat. You can still watch it."
    elif game.status == Game.Status.ACTIVE:
        if my_turn and len(to_act) > 2:
            turn = "Your turn (the other players asked are playing too; answer in any order)."
        elif my_turn and len(to_act) > 1:
            turn = "Your turn (the other player is asked to act too)."
        elif my_turn:
            turn = "Your turn."
        elif all(s.user is not None and s.user.is_computer for s in seats if s.index in to_act):
            # Its move is on its way from a worker; the page's polling brings it.
            turn = " and ".join(s.player_name for s in seats if s.index in to_act) + " is thinking…"
        else:
            turn = "Waiting for " + " and ".join(s.player_name for s in seats if s.index in to_act) + "."
    elif game.status in Game.WAITING and game.players > 2:
        taken = sum(s.status == Seat.Status.JOINED for s in seats)
        turn = (f"{taken} of {game.players} seats taken; the game starts when every seat is taken"
                + (" (open seats are in the lobby)." if any(s.status == Seat.Status.OPEN for s in seats) else "."))
    elif game.status == Game.Status.OPEN:
        turn = "Waiting for someone to accept your open challenge in the lobby."
    elif game.status == Game.Status.INVITED:
        turn = "Waiting for the invited player to accept."
    else:
        turn = game.get_status_display() + (f": {game.end_reason}" if game.end_reason else ".")
    if show.waiting and not my_turn:
        # Raised cards on the board's edge belong to whoever is placing them, not the viewer.
        owners = [s.player_name for s in seats if s.index in to_act]
        show.waiting_label = f"{' and '.join(owners)}'s raised cards, waiting for a place" if owners \
            else "Raised cards waiting for a place"
    note = Note.objects.filter(game=game, user=request.user).first()
    # Who left the table no longer talks at it (nor reads what the players say there).
    chat = list(game.chat.select_related("user")) if game.players > 1 and not left else None
    # Only the viewer's own entry: each player's journal is private (journal.Entry.owner).
    journal_entry = game.journal_entries.filter(owner=request.user).first() if game.is_over else None
    return {
        "game": game, "seat": seat, "seats": seats, "show": show, "started": started,
        "my_turn": my_turn, "turn": turn, "message": message, "notice": notice, "confirm": confirm,
        "clock": deadlines.clock_facts(game, seat) if not left else None, "journal_entry": journal_entry,
        "left": left,
        "log": _log_for(game, seat, show.view) if started else [],
        "chat": chat, "chat_form": ChatForm(),
        "note_form": NoteForm(instance=note),
        "stamp": poll_stamp(game),
        # Poll fast while someone else is to act; slowly otherwise, for chat and clocks.
        # Several seats asked at once see each other play (a face-down card) while asked too.
        "poll_every": "3s" if game.status != Game.Status.ACTIVE or not my_turn else "5s" if len(to_act) > 1 else "20s",
        "live": not game.is_over,
        "outcome": game.outcome,
        "result": game.result_for(seat.index).capitalize(),
        # A solo game's score is already among the facts; the outcome line doesn't repeat it.
        "outcome_scores": game.outcome.get("scores") if game.outcome and game.players > 1 else None,
        "winners": [s.player_name for s in seats if game.outcome and s.index in game.outcome.get("winners", [])],
        "now": timezone.now(),
        "can_start_now": (game.status in Game.WAITING and game.players > 2 and game.created_by_id == request.user.pk
                          and sum(s.status == Seat.Status.JOINED for s in seats) >= max(rules.min_players, 2)),
    }


def regions_response(request, context: dict, status: int = 200) -> HttpResponse:
    """The regions that changed, as htmx out-of-band swaps, with their new hashes."""
    parts = []
    for region in REGIONS:
        html = render_to_string(f"games/game.html#{region}", {**context, "oob": True}, request=request)
        digest = hashlib.sha1(_CSRF_INPUT.sub("", html).encode()).hexdigest()[:16]
        if request.GET.get(f"seen_{region}", request.POST.get(f"seen_{region}")) == digest:
            continue
        parts.append(html)
        parts.append(f'<input type="hidden" class="region-hash" id="seen-{region}" name="seen_{region}" '
                     f'value="{digest}" hx-swap-oob="true">')
    pick = context["show"].picked["code"] if context["show"].picked else ""
    parts.append(f'<input type="hidden" class="region-hash" id="pick-state" name="picked" value="{pick}" '
                 f'hx-swap-oob="true">')
    response = HttpResponse("".join(parts), status=status)
    response["HX-Trigger"] = json.dumps({"turn-count": {"value": turn_count(request.user)}})
    return response


@login_required
@require_GET
def game_page(request, game_id):
    game, seat = get_game_for(request, game_id, joined=False, left=True)
    if seat.status not in (Seat.Status.JOINED, LEFT):
        if seat.status == Seat.Status.INVITED and game.status == Game.Status.INVITED:
            return render(request, "games/invitation.html", {"game": game, "seat": seat, "token": None})
        raise Http404("No such game.")
    if seat.status != LEFT:
        mark_seen(seat)
    pick = request.GET.get("pick", request.GET.get("picked"))  # a click wins over the page's memory
    context = game_context(request, game, seat, pick=None if pick in ("", "none") else pick)
    if request.htmx:
        return regions_response(request, context)
    return render(request, "games/game.html", context)


def mark_seen(seat: Seat) -> None:
    """The player is looking at the game now (games.mail.tasks holds turn mail meanwhile);
    written at most every ten seconds, so polling costs no write most of the time."""
    now = timezone.now()
    if seat.seen_at is None or (now - seat.seen_at).total_seconds() > 10:
        Seat.objects.filter(pk=seat.pk).update(seen_at=now)
        seat.seen_at = now


@login_required
@require_GET
def version(request, game_id):
    """Tiny and cheap: 204 while nothing changed, else an htmx event that refreshes the page."""
    game, seat = get_game_for(request, game_id, left=True)
    if seat.status != LEFT:
        mark_seen(seat)
    if request.GET.get("v") != poll_stamp(game):
        response = HttpResponse(status=200)
        response["HX-Trigger"] = "game-changed"  # the page fetches its regions, and the count with them
        return response
    # Every poll also brings the count of games waiting for this player (the title and the
    # navigation's badge, updated by game.js): a move in another game shows up too.
    response = HttpResponse(status=204)
    response["HX-Trigger"] = json.dumps({"turn-count": {"value": turn_count(request.user)}})
    return response


def _draws_hidden_cards(game: Game, seat: Seat, move: dict) -> bool:
    try:
        return game.rules.move_facts(game.load_state(), seat.index, move)["draws_hidden"]
    except (IllegalMove, ValueError, KeyError, TypeError):
        return False  # submit_move gives the real answer


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
    game, seat = get_game_for(request, game_id)
    status, message, confirm = 200, "", None
    try:
        expected = int(request.POST.get("version", ""))
        chosen = read_move_field(request.POST.get("move", ""))
    except ValueError:
        status, message = 400, "That move could not be read; please choose it again on the board."
    else:
        if (seat.wants_confirmation and not request.POST.get("confirmed")
                and game.status == Game.Status.ACTIVE and services.still_current(game, seat.index, expected)
                and _draws_hidden_cards(game, seat, chosen)):
            confirm = {"move": request.POST["move"], "version": expected,
                       "label": game.rules.describe_move(game.load_state(), seat.index, chosen)}
        else:
            try:
                services.submit_move(game.pk, request.user, chosen, expected)
            except IllegalMove as error:
                status, message = 400, str(error)
            except services.GameError as error:
                status, message = error.status, error.message
            except (ValueError, TypeError, KeyError, IndexError):
                # A move so malformed that the engine tripped over it before it could
                # refuse it: nothing was written (the transaction rolled back).
                logger.exception("move %r on game %s", chosen, game.pk)
                status, message = 400, "That move is not possible here."
            else:
                if not request.htmx:
                    return redirect(game)
            game, seat = get_game_for(request, game_id)
    context = game_context(request, game, seat, message=message, confirm=confirm)
    if request.htmx:
        return regions_response(request, context, status)
    return render(request, "games/game.html", context, status=status)


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
    status = 200
    if form.is_valid():
        ChatMessage.objects.create(game=game, seat=seat.index, user=request.user, text=form.cleaned_data["text"])
        form = ChatForm()
    else:
        status = 400
    if not request.htmx:
        if status == 400:
            messages.error(request, "; ".join(e for errs in form.errors.values() for e in errs))
        return redirect(reverse("games:game", args=[game.pk]) + "#chat")
    context = game_context(request, game, seat)
    context["chat_form"] = form
    return regions_response(request, context, status)


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


@login_required
@require_GET
def history(request, game_id):
    """Step through a finished game: the board after each move, as this seat saw it."""
    game, seat = get_game_for(request, game_id, left=True)
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
    moves = [{"number": m.number, "who": names.get(m.seat, "?"),
              "text": for_reader(as_seen_by(m.description, m.seat == seat.index), seat.index, names)}
             for m in records]
    # A seat the house took over, after the move it followed (its step shows the board then).
    for line in reversed(services.taken_over_lines(game, seat.user_id)):
        moves.insert(line["version"], {"number": line["version"], "who": line["who"], "text": line["text"]})
    context = {
        "game": game, "seat": seat, "step": step, "total": len(records),
        "show": _worded(present(rules, state, seat.index, interactive=False), seat.index, names),
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
