"""The game pages: thin views over ``games.services`` (changes) and ``games.presenters``
(what a seat sees).  Every view starts with ``get_game_for``, so a user without a seat in
a game gets 404 from every URL of it, as if it did not exist."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import logging
import re
from collections import namedtuple

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.contrib.humanize.templatetags.humanize import NaturalTimeFormatter, naturaltime
from django.template.context import make_context
from django.template.loader import get_template
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_POST

from games import listing, services
from games.clocks import deadlines
from games.engine import IllegalMove
from games.engine.words import as_seen_by, for_reader, shared_result
from games.forms import ChatForm, NewGameForm, NoteForm
from games.turns import turn_count, waiting
from games.models import ChatMessage, Game, GameEvent, Move, Note, Seat
from games.presenters.common import Choice
from games.registry import present
from games.templatetags import game_parts
from sefirot_site.prepared import PreparedQuery

logger = logging.getLogger(__name__)

# The regions of the game page, each a {% partialdef %} of games/game.html.  htmx requests
# get back only the regions whose HTML differs from what the page shows (it sends a hash
# of each), swapped out of band.
REGIONS = ("status", "board", "planes", "hand", "log", "chat", "actions", "poll")


def get_game_for(request, game_id: int, *, joined: bool = True, left: bool = False) -> tuple[Game, Seat]:
    """The game and the requesting user's seat in it; 404 for anyone without a seat.
    With ``left``, a player whose seat the house took over gets an unsaved seat without
    an index (status ``LEFT``): they look on as a spectator would."""
    game = services.game_with_seats(game_id)
    if game is None:
        raise Http404("No such game.")
    if left and not any(s.user_id == request.user.pk for s in game.seats.all()) \
            and services.left_game_for(game, request.user):
        return game, Seat(game=game, index=None, user=request.user, status=LEFT)
    return game, _seat_in(game, request.user, joined=joined)


# The status of the unsaved seat of a player who left (never stored): read-only.
LEFT = "left"


def _seat_in(game: Game, user, *, joined: bool = True) -> Seat:
    seat = next((s for s in game.seats.all() if s.user_id == user.pk), None)
    if seat is None or (joined and seat.status != Seat.Status.JOINED):
        raise Http404("No such game.")
    return seat


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
        **context, **listing.in_play(request.user), "vacation": deadlines.open_vacation(request.user.pk),
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
                                           invitees=data["table_invitees"], creator_looking=True)
            else:
                game = services.start_game(
                    request.user, data["mode"], form.game_options(),
                    opponent=data.get("opponent_user") if data["opponent"] in ("user", "computer") else None,
                    invite_email=data["email"] if data["opponent"] == "email" else "",
                    open_challenge=data["opponent"] == "open",
                    time_control=data.get("time_control"), creator_looking=True,
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


def _newest(game: Game, name: str, related: str):
    """The newest chat line's or clock event's id: annotated on the game where it was
    loaded with ``services.game_with_seats`` (no query), else asked."""
    if hasattr(game, name):
        return getattr(game, name)
    return getattr(game, related).order_by("-pk").values_list("pk", flat=True).first()


def poll_stamp(game: Game) -> str:
    """Changes whenever the page of the game would: a move, an end, a chat line, or a
    deadline that moved (a day given, a clock paused for a vacation or running again)."""
    last_chat = _newest(game, "last_chat_id", "chat") if game.players > 1 else 0
    stamp = f"{game.version}.{game.status}.{last_chat or 0}"
    if game.time_control is not None:
        stamp += f".{int(game.deadline.timestamp()) if game.deadline else 'paused'}"
        # A day given to a paused clock moves no deadline, but the log shows it.
        stamp += f".{_newest(game, 'last_event_id', 'events') or 0}"
    elif game.players > 2:
        # A seat the house took over changes the names and the log, not the version.
        stamp += f".{_newest(game, 'last_event_id', 'events') or 0}"
    return stamp


class _Reprs:
    """The presentation's values as repr gives them, each made once per answer: _worded
    reads them to find a seat named, the region digests to tell what changed (a board's
    spaces were read twice: 5 % of a Know Thyself move's instructions).  Kept by each
    value's identity, with the value: a value put in a field's place afterwards (the
    waiting label game_context rewrites) is read anew.  Nothing changes a worded value in
    place."""
    __slots__ = ("_kept",)

    def __init__(self):
        self._kept = {}

    def of(self, value) -> str:
        kept = self._kept.get(id(value))
        if kept is not None and kept[0] is value:
            return kept[1]
        text = repr(value)
        self._kept[id(value)] = (value, text)
        return text

    def of_items(self, values: list) -> str:
        """repr(values), made from its items' own (a board's spaces: each is a part with a
        digest of its own)."""
        kept = self._kept.get(id(values))
        if kept is not None and kept[0] is values:
            return kept[1]
        text = "[" + ", ".join(self.of(value) for value in values) + "]"
        self._kept[id(values)] = (values, text)
        return text


# The fields whose items are the parts of a region (region_parts), each digested alone.
_PART_FIELDS = frozenset({"cells", "encounter", "piles"})


def _worded(show, seat_index: int, names: dict[int, str], reprs: _Reprs | None = None):
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
        if isinstance(value, Choice):
            # A move's button names whose card it acts on ("Queen: turn Seat 0's XII The
            # Hanged Man reversed"); the mail words the same engine text (mail.outgoing).
            return dataclasses.replace(value, label=words(value.label))
        return value

    reprs = reprs if reprs is not None else _Reprs()
    for name in (f.name for f in dataclasses.fields(show) if f.name != "view"):
        value = getattr(show, name)
        # Most fields (the cells, the hand) name no seat: one repr, in C, finds that out
        # rather than a walk through every dict and list of them in Python.
        said = reprs.of_items(value) if name in _PART_FIELDS and type(value) is list else reprs.of(value)
        if "eat " in said:
            setattr(show, name, words(value))
    return show


# The game page's log shows the newest moves; "Show earlier moves" asks for this many
# more each time (``?log=N``, kept by the page in a hidden input), and the history page
# keeps the whole record.  So a move's answer costs the same at move 200 as at move 10:
# ten moves, a phone's screenful, and a window already full by move 10 (at twenty, a move
# early in a game drew fewer entries than every move after the twentieth).
LOG_WINDOW = 10


def log_limit(request) -> int:
    """How many of the newest log entries the page shows: the largest ``log`` asked (the
    page's hidden input and a "Show earlier" link may both send one)."""
    asked = [LOG_WINDOW]
    for value in request.GET.getlist("log") + request.POST.getlist("log"):
        try:
            asked.append(int(value))
        except ValueError:
            pass
    return min(max(asked), 100_000)


LogRecord = namedtuple("LogRecord", ("number", "seat", "description", "created_at"))
_NEWEST_MOVES = PreparedQuery(
    lambda game_id: Move.objects.filter(game_id=game_id).order_by("-number")
    .values_list(*LogRecord._fields)[:LOG_WINDOW], 1)


def _log_for(game: Game, seat: Seat, view: dict, limit: int | None = None) -> list[dict]:
    """The move log in words, where a card this seat cannot see now is told as "a card"
    (another seat's discard from hand, a card put back into the deck): the log never
    tells more than the board does.  Clock events (a day given) come in among the moves,
    after the move they followed, without a move number.  With ``limit``, only the newest
    ``limit`` moves (and the events since the first of them) are read."""
    names = {s.index: s.player_name for s in game.seats.all()}
    # Only the columns the log reads, as rows: not the move's JSON, nor a model per move.
    columns = LogRecord._fields
    if limit is None:
        records = list(game.moves.values_list(*columns, named=True))
    elif limit == LOG_WINDOW:  # what every move's answer reads
        # A move's answer has them from the statement that wrote the move (submit_move).
        newest = getattr(game, "newest_moves", None)
        records = [LogRecord(*row) for row in (_NEWEST_MOVES(game.pk) if newest is None else newest)][::-1]
    else:
        records = list(game.moves.order_by("-number").values_list(*columns, named=True)[:limit])[::-1]
    first = records[0].number if records and limit is not None else 0
    said = game.rules.log_for(view, seat.index, [(record.seat, record.description) for record in records])
    entries = []
    now = timezone.now()  # one "now" for the whole log, as the page is drawn at one moment
    language = translation.get_language()
    for record, text in zip(records, said):
        entries.append({"number": record.number, "who": names.get(record.seat, f"Seat {record.seat + 1}"),
                        "mine": record.seat == seat.index, "text": for_reader(text, seat.index, names),
                        "at": record.created_at, "ago": ago(record.created_at, now, language),
                        "order": (record.number, 0)})
    # Without a clock event (annotated by game_with_seats) there is nothing to ask for.
    events = [] if getattr(game, "last_event_id", True) is None else game.events.select_related("user")
    for event in events:
        if event.kind == GameEvent.Kind.TAKEN_OVER:
            # Said for people by the event itself ("Carol left the table; ...", "You left ...").
            who, text = event.said_for(seat.user_id)
            if event.version >= first:
                entries.append({"number": None, "event": True, "who": who, "text": text,
                                "mine": event.user_id is not None and event.user_id == seat.user_id,
                                "at": event.created_at, "ago": ago(event.created_at, now, language),
                                "order": (event.version, 1)})
            continue
        if event.version < first:
            continue
        receivers = " and ".join("you" if i == seat.index else names.get(i, f"Seat {i + 1}")
                                 for i in event.to_seats) or "the other player"
        entries.append({"number": None, "event": True, "who": names.get(event.seat, f"Seat {event.seat + 1}"),
                        "mine": event.seat == seat.index, "text": f"gave {receivers} a day more for this move.",
                        "at": event.created_at, "ago": ago(event.created_at, now, language),
                        "order": (event.version, 1)})
    entries.sort(key=lambda entry: entry["order"])  # stable: events of one version keep their order
    # Each entry's name on the page (log-12, log-12e0 for an event after move 12), by which
    # an answer adds, redraws or drops it alone (_log_changes).
    events_at = {}
    for entry in entries:
        if entry.get("event"):
            version = entry["order"][0]
            entry["key"] = f"{version}e{events_at.get(version, 0)}"
            events_at[version] = events_at.get(version, 0) + 1
        else:
            entry["key"] = str(entry["number"])
    return entries


def ago(moment, now, language: str | None = None) -> str:
    """``naturaltime(moment)`` as of ``now``, as a str ("3 minutes ago", "now", "an hour
    from now").  Under a day it is remembered by its words' key and count: every entry of
    every log's window reads one, and naturaltime costs 31 µs a time (it translates its
    lazy strings anew), a remembered one under 2.  A log asks for the ``language`` once
    for all its entries (get_language is 2 µs a call)."""
    future = moment >= now
    delta = moment - now if future else now - moment
    if delta.days:
        return str(naturaltime(moment))  # days, weeks, months: the calendar decides
    # As NaturalTimeFormatter.string_for counts, a whole number of the largest unit.
    seconds = delta.seconds
    if seconds == 0:
        key, count = "now", 0
    elif seconds < 60:
        key, count = "second", seconds
    elif seconds < 3600:
        key, count = "minute", seconds // 60
    else:
        key, count = "hour", seconds // 3600
    return _ago_words(language or translation.get_language(), key, count, future)


@functools.lru_cache(maxsize=2048)
def _ago_words(language: str | None, key: str, count: int, future: bool) -> str:
    words = NaturalTimeFormatter.time_strings
    if key == "now":
        return str(words["now"])
    return str(words[f"{'future' if future else 'past'}-{key}"] % {"count": count})


# Every game page reads the player's notes, and a game of two or more its chat: compiled once.
_NOTE = PreparedQuery(lambda game_id, user_id: Note.objects.filter(game=game_id, user=user_id).order_by("pk")[:1], 2)
_CHAT_LINES = PreparedQuery(lambda game_id: ChatMessage.objects.filter(game=game_id).select_related("user"), 1)


def _result_line(game: Game, seat: Seat, seats: list[Seat]) -> str:
    """The outcome line's result: "You won", "You lost", or a cooperative game's shared one
    ("You and Bob lost together")."""
    if game.rules.cooperative and game.outcome and game.outcome.get("result") in ("win", "loss"):
        said = shared_result(game.outcome["result"] == "win",
                             [s.player_name for s in seats if s.index != seat.index])
        return said[:1].upper() + said[1:]
    return game.result_for(seat.index).capitalize()


def game_context(request, game: Game, seat: Seat, *, pick: str | None = None, message: str = "",
                 notice: str = "", confirm: dict | None = None) -> dict:
    """What the page and its regions are drawn from.  What only some regions read (the
    chat lines, the notes, the journal link) is loaded when a region that shows it is
    drawn, so an answer whose regions are unchanged does not ask for it."""
    rules = game.rules
    state = game.load_state()
    started = game.status == Game.Status.ACTIVE or (game.is_over and game.started_at is not None)
    left = seat.status == LEFT
    show = present(rules, state, seat.index, pick=pick, interactive=game.status == Game.Status.ACTIVE and not left)
    # The engine's lines the page shows: the newest, as many as the log's window (the
    # "Show earlier lines" link asks for more); only those are worded and digested.
    limit = log_limit(request)
    events_count = len(show.events)
    show.events = show.events[-limit:]
    seats = list(game.seats.all())
    # The engine's words name seats; the page names players, and the reader is "you".
    names = {s.index: s.player_name for s in seats}
    reprs = _Reprs()
    show = _worded(show, seat.index, names, reprs)
    if confirm:  # the engine's label names seats ("give to Seat 2"): say them as people
        confirm = {**confirm, "label": for_reader(confirm["label"], seat.index, names)}
    to_act = list(game.to_act) if game.status == Game.Status.ACTIVE else []
    my_turn = seat.index in to_act
    # A computer player answers within a second or so of the move (a worker plays it).
    computer_thinking = bool(to_act) and all(s.user is not None and s.user.is_computer
                                             for s in seats if s.index in to_act)
    if left and game.status == Game.Status.ACTIVE:
        turn = "You left this game; the house plays your seat. You can still watch it."
    elif game.status == Game.Status.ACTIVE:
        if my_turn and len(to_act) > 2:
            turn = "Your turn (the other players asked are playing too; answer in any order)."
        elif my_turn and len(to_act) > 1:
            turn = "Your turn (the other player is asked to act too)."
        elif my_turn:
            turn = "Your turn."
        elif computer_thinking:
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
    if show.waiting and game.is_over:
        # The game ended on them (a raised card that fits nowhere ends it): nothing waits now.
        show.waiting_label = "Raised cards left without a place when the game ended" \
            if show.waiting_label.startswith("Raised") else f"{show.waiting_label} (when the game ended)"
    elif show.waiting and not my_turn:
        # Raised cards on the board's edge belong to whoever is placing them, not the viewer.
        owners = [s.player_name for s in seats if s.index in to_act]
        show.waiting_label = f"{' and '.join(owners)}'s raised cards, waiting for a place" if owners \
            else "Raised cards waiting for a place"
    user = request.user
    # Where "Next game waiting" leads once this game no longer asks the player (issue 42).
    elsewhere = None if my_turn or left else [url for url in waiting(user) if url != game.get_absolute_url()]
    note_form = SimpleLazyObject(lambda: NoteForm(instance=next(iter(_NOTE(game.pk, user.pk)), None)))
    # Who left the table no longer talks at it (nor reads what the players say there).
    chat = SimpleLazyObject(lambda: _CHAT_LINES(game.pk)) if game.players > 1 and not left else None
    # Only the viewer's own entry: each player's journal is private (journal.Entry.owner).
    journal_entry = SimpleLazyObject(lambda: game.journal_entries.filter(owner=user).first()) \
        if game.is_over else None
    return {
        "game": game, "seat": seat, "seats": seats, "show": show, "started": started,
        "my_turn": my_turn, "turn": turn, "message": message, "notice": notice, "confirm": confirm,
        "clock": deadlines.clock_facts(game, seat) if not left else None, "journal_entry": journal_entry,
        "left": left,
        "log": _log_for(game, seat, show.view, limit) if started else [],
        "log_limit": limit,
        # Moves and engine lines older than the window: the "Show earlier" link asks for more.
        "log_earlier": max(game.version - limit, 0) if started else 0,
        "events": show.events, "events_start": max(events_count - limit, 0) + 1,
        "events_earlier": max(events_count - limit, 0),
        "log_more": limit + LOG_WINDOW * 2,
        "chat": chat,
        "note_form": note_form,
        "stamp": poll_stamp(game),
        "_reprs": reprs,
        # Poll fast while someone else is to act; slowly otherwise, for chat and clocks.
        # Several seats asked at once see each other play (a face-down card) while asked too.
        # While a computer player thinks, a quarter of a second, for a while (POLL_FAST_FOR):
        # its answer shows as soon as it is made, not up to 3 s later (issue 42).
        "poll_every": game_parts.POLL_FAST if computer_thinking and not left else "3s" if not my_turn
        else "5s" if len(to_act) > 1 else "20s",
        "live": not game.is_over,
        "outcome": game.outcome,
        "result": _result_line(game, seat, seats),
        # A solo game's score is already among the facts; the outcome line doesn't repeat it,
        # nor a cooperative game's, the one score its partners share.
        "outcome_scores": game.outcome.get("scores") if game.outcome and game.players > 1
        and not rules.cooperative else None,
        "winners": [s.player_name for s in seats if game.outcome and s.index in game.outcome.get("winners", [])
                    and not rules.cooperative],
        "now": timezone.now(),
        "waiting_elsewhere": elsewhere,
        # Found with them, the count in the title and badge (else the context processor's).
        **({"turn_count": len(elsewhere)} if elsewhere is not None else {}),
        "next_game": elsewhere[0] if elsewhere else None,
        "can_start_now": (game.status in Game.WAITING and game.players > 2 and game.created_by_id == request.user.pk
                          and sum(s.status == Seat.Status.JOINED for s in seats) >= max(rules.min_players, 2)),
    }


@functools.cache
def _templates_key() -> str:
    """Changes with the game page's templates (and the parts of it drawn in Python), so a
    page from before a deploy gets every region anew rather than keep one drawn by the old
    template."""
    digest = hashlib.sha1()
    sources = [get_template(name).origin.name
               for name in ("games/game.html", "games/_pick.html", "games/_card.html", "games/_move_form.html")]
    for origin in sources + [game_parts.__file__]:
        with open(origin, "rb") as source:
            digest.update(source.read())
    return digest.hexdigest()


def _reader_keys(context: dict) -> tuple[tuple, tuple, tuple]:
    """What every region's digest starts from: the reader (seat, names, time zone, the
    templates themselves); that and the game's version and status; that without the version."""
    if "_reader_keys" in context:  # asked by the digests and again by the answer
        return context["_reader_keys"]
    game, seat = context["game"], context["seat"]
    reader = (_templates_key(), game.pk, seat.index, seat.status, timezone.get_current_timezone_name(),
              tuple((s.index, s.player_name, s.status, s.user is not None and s.user.is_computer)
                    for s in context["seats"]))
    # str: a game a move just finished holds the status as an enum member, whose repr differs.
    game_key = reader + (game.version, str(game.status), game.started_at is not None)
    still = reader + (str(game.status), game.started_at is not None)
    context["_reader_keys"] = reader, game_key, still
    return reader, game_key, still


def _prefix_hashes(context: dict) -> tuple:
    """The three keys of _reader_keys hashed once each: every part's digest goes on from a
    copy of one of them, rather than hashing its reader again (a board has dozens)."""
    if "_prefix_hashes" not in context:
        context["_prefix_hashes"] = tuple(hashlib.sha1(repr(key).encode()) for key in _reader_keys(context))
    return context["_prefix_hashes"]


class _Said(str):
    """A key's text already made by repr: a key that holds it is repr'd without escaping
    it a second time (the hand's or the board's text is kilobytes)."""
    __slots__ = ()

    def __repr__(self):
        return str.__str__(self)


def region_digests(context: dict) -> dict[str, str]:
    """A digest per region of everything its HTML is drawn from, computed without drawing
    it: the page holds these (``#seen-*``) and sends them back, and a region whose digest
    it already has is not drawn again.  Each region's key is what its partial reads: the
    reader (seat, names, time zone, the templates themselves), the game's version and
    status, the presentation fields it shows (whatever the game's presenter put there),
    and its own extras (a confirmation, a message, the clock, "3 minutes ago", the log's
    window, the newest chat line, the poll stamp).  A partial that starts reading more
    must say so here.  A region that grows with the game (the board's spaces, the
    planes' columns and piles, the log's entries) has the digest of its frame followed
    by one per part, dotted, so that an answer can send only the parts that changed; so has
    the hand, whose cards are its part."""
    game, seat, show = context["game"], context["seat"], context["show"]
    clock = context["clock"]
    reader, game_key, still = _reader_keys(context)
    reader_hash, game_hash, still_hash = _prefix_hashes(context)
    reprs = context.get("_reprs") or _Reprs()  # those _worded made (game_context), or none yet

    def shown(*names):
        # repr of the list of those fields, from each field's own (read once by _worded)
        return _Said("[" + ", ".join(reprs.of(getattr(show, name)) for name in names) + "]")

    def cards(*names):
        # A move form (a Choice) carries the version; a region without one (cards and
        # spaces only) is the same HTML at any version while its cards are the same.
        data = shown(*names)
        return (still if "Choice(" not in data else game_key) + (data,)

    # Not the version: a move that leaves the turn, the facts and the outcome as they were
    # (most moves of a solo game) leaves the status as it was.
    status = still + (tuple(game.to_act), game.end_reason, game.time_control, context["message"],
                      context["notice"], context["turn"], shown("facts"),
                      json.dumps(game.outcome, sort_keys=True),  # PostgreSQL's jsonb orders keys its own way
                      context["result"], tuple(context["winners"]), context["can_start_now"],
                      context["next_game"])
    if clock:
        status += (naturaltime(clock["deadline"]) if clock["deadline"] else None, repr(clock))

    parts = region_parts(context)
    if parts["board"]:
        # The frame of a board of spaces: what is drawn around them, and which spaces there are.
        board = cards("board_kind", "board_width", "board_height", "lines", "encounter_title", "bridges") \
            + (context["started"], [part[1] for part in parts["board"]])
    else:
        # The Hallow table (show.table), Hermit's board (show.board, show.bridges, show.can_act)
        # are drawn in this region too.
        board = cards("board_kind", "board_width", "board_height", "lines", "cells", "encounter",
                      "encounter_title", "bridges", "table", "board", "can_act")
    if parts["planes"]:
        # The frame of the planes: their titles, how many columns each has, how many piles.
        planes = still + (context["started"], [(plane["title"], len(plane["columns"])) for plane in show.planes],
                          [part[1] for part in parts["planes"]])
    else:
        planes = cards("planes", "piles")
    hand_fields = ["prompt", "can_act", "waiting", "waiting_label", "hand", "hand_count", "rows", "picked",
                   "picked_choices", "actions", "hint"]
    if parts["hand"]:
        hand_fields.remove("hand")  # the cards are a part of their own, digested below (region_parts)
    hand = cards(*hand_fields) + (repr(context["confirm"]), [part[1] for part in parts["hand"]])
    keys = {
        "status": status,
        "board": board,
        "hand": hand,
        "planes": planes,
        "actions": reader + (str(game.status), game.time_control, game.started_at is not None, seat.confirm_moves),
        # The log's frame: its entries and the engine's lines are its parts (below).
        "log": reader + (bool(context["log_earlier"]), context["log_more"], bool(context["log"]),
                         bool(context["events"])),
        "chat": reader + (_newest(game, "last_chat_id", "chat") if game.players > 1 else None,),
        "poll": reader + (context["stamp"], context["poll_every"], context["live"]),
    }
    digests = {region: _digest((region, key), REGION_DIGEST) for region, key in keys.items()}
    for region, region_parts_ in parts.items():
        if region_parts_:
            digests[region] += "".join("." + _part_token(reprs.of(part[2]), part[4], still_hash, game_hash)
                                       for part in region_parts_)
    if context["log"] or context["events"]:
        events = (context["events"], context["events_earlier"], context["events_start"], context["log_more"])
        digests["log"] += "." + _digest_after(reader_hash, repr(events), PART_DIGEST) + "".join(
            "." + _log_token(entry, previous, _digest_after(reader_hash, repr(entry), PART_DIGEST))
            for previous, entry in zip([None] + context["log"], context["log"]))
    return digests


def _part_token(text: str, cells: list | None, still_hash, game_hash) -> str:
    """A part's token from the repr of what it is drawn from."""
    token = _digest_after(still_hash if "Choice(" not in text else game_hash, text, PART_DIGEST)
    if cells is None:
        return token
    # A column of cards: its own frame, how many cards, and a digest of them, so that an
    # answer can append the cards played since instead of drawing it again (_cards_added).
    return f"{token}x{len(cells)}x{_cells_digest(still_hash, cells)}"


def _log_token(entry: dict, previous: dict | None, digest: str) -> str:
    """A log entry's name and digest, as the page holds them ("181_9f2c…"); a move right
    after the move before it is only its digest, so the page's window of the log costs
    its digests and little more."""
    if previous is not None and not previous.get("event") and not entry.get("event") \
            and previous["number"] + 1 == entry["number"]:
        return digest
    return f"{entry['key']}_{digest}"


LOG_KEY = re.compile(r"\d+(e\d+)?")


def _log_keys(tokens: list[str]) -> dict[str, str] | None:
    """The page's log entries, name to digest, from its tokens (see _log_token); None
    when they do not read as the page writes them."""
    held, number = {}, None
    for token in tokens:
        key, _, digest = token.rpartition("_")
        if not key:
            if number is None:
                return None
            key = str(number)
        elif not LOG_KEY.fullmatch(key):
            return None
        number = int(key) + 1 if key.isdigit() else None
        held[key] = digest
    return held


# A region's digest is 16 hex digits; each part's (a board space, a plane's column) is
# shorter, since the page sends one per part with every request and a part's digest is
# only ever compared with the same part's previous one.
REGION_DIGEST = 16
PART_DIGEST = 8


def _digest(key, length: int) -> str:
    return hashlib.sha1(repr(key).encode()).hexdigest()[:length]


def _digest_after(prefix, text: str, length: int) -> str:
    """The digest of a part's text after its reader's (``prefix``, from _prefix_hashes)."""
    digest = prefix.copy()
    digest.update(b"\0" + text.encode())
    return digest.hexdigest()[:length]


def _cells_digest(still_hash, cells: list) -> str:
    return _digest_after(still_hash, repr(cells), PART_DIGEST)


def region_parts(context: dict) -> dict[str, list[tuple[str, str, object, dict, list | None]]]:
    """The parts of the regions that grow with the game (the spaces of a board, the columns
    of the planes, the piles) and of the hand (its cards), each as (partial, the id the
    page knows it by, what it is drawn from, the context it is drawn with, and for a
    column the cards it holds, which an answer may append to).  While a region's frame is
    unchanged, an answer sends only its parts that changed, each swapped out of band by
    its id, so a move late in a long game costs what an early one does.  A board drawn by
    its own template (Hermit's, the Hallow table) has no parts: it is sent whole."""
    show = context["show"]
    parts = {"board": [], "planes": [], "hand": []}
    if not context["started"]:
        return parts
    if show.hand is not None:
        # A move mostly changes the cards in hand and leaves the prompt, the hint's form
        # and the rest as they were: the cards are sent alone then.
        parts["hand"].append(("hand_cards", "hand-cards", show.hand, {}, None))
    if show.board_kind and show.board_kind not in ("hermit", "hallow"):
        parts["board"] += [("board_space", f"space-{cell['dom']}", cell, {"cell": cell}, None)
                           for cell in show.cells]
        parts["board"] += [("encounter_slot", f"space-{cell['dom']}", cell, {"cell": cell}, None)
                           for cell in show.encounter or ()]
    for plane_number, plane in enumerate(show.planes or ()):
        parts["planes"] += [("plane_column", f"plane-{plane_number}-column-{column_number}",
                             {key: value for key, value in column.items() if key != "cards"},
                             {"column": column, "plane_number": plane_number, "column_number": column_number},
                             column["cards"])
                            for column_number, column in enumerate(plane["columns"])]
    parts["planes"] += [("pile", f"pile-{pile_number}", pile, {"pile": pile, "pile_number": pile_number}, None)
                        for pile_number, pile in enumerate(show.piles or ())]
    return parts


def _cards_added(held: str, now: str, part: tuple, still_hash) -> list | None:
    """The cards played onto a column since the page drew it, when they are all that
    changed (same frame and no move form at its foot, the cards the page holds still the
    first ones): they are appended to it.  None when the column must be drawn again."""
    frame, _, rest = held.partition("x")
    count, _, cells = rest.partition("x")
    cards = part[4]
    if frame != now.partition("x")[0] or part[2].get("target") or not count.isdigit() \
            or not 0 < int(count) < len(cards) or cells != _cells_digest(still_hash, cards[:int(count)]):
        return None
    return cards[int(count):]


def _log_changes(seen: str | None, digest: str, context: dict) -> list[tuple[str, dict]] | None:
    """What brings the page's log to the one drawn now, as (partial, its extra context):
    the entries gone out of the window deleted, those whose words or time changed drawn
    again, the new ones appended, the engine's lines if they changed; or None when the
    log must be sent whole (another frame, or a new entry before one the page keeps)."""
    if not seen or seen.count(".") < 1 or "." not in digest:
        return None
    seen_frame, seen_events, *seen_entries = seen.split(".")
    frame, events, *entries = digest.split(".")
    if seen_frame != frame:
        return None
    held, now = _log_keys(seen_entries), _log_keys(entries)
    if held is None:
        return None
    kept = [number for number, entry in enumerate(context["log"]) if entry["key"] in held]
    added = [entry for entry in context["log"] if entry["key"] not in held]
    if added and kept and context["log"].index(added[0]) < kept[-1]:
        return None
    redrawn = [number for number in kept if held[context["log"][number]["key"]] != now[context["log"][number]["key"]]]
    if len(redrawn) > len(kept) // 2:
        return None  # most of its times moved on ("a minute ago"): the whole log costs less
    gone = [key for key in held if key not in now]
    changes = [("games/game.html#log_entries_gone", {"gone": gone})] if gone else []
    changes += [("games/game.html#log_entry", {"entry": context["log"][number], "part_oob": True})
                for number in redrawn]
    if added:
        changes.append(("games/game.html#log_entries_added", {"added": added}))
    if seen_events != events and context["events"]:
        changes.append(("games/game.html#log_events", {"part_oob": True}))
    return changes


def _changed_parts(seen: str | None, digest: str) -> list[tuple[int, str, str]] | None:
    """Which parts of a region differ from those the page holds (their positions, with
    the page's token and the new one), or None when the region must be sent whole: the
    page holds none of it, or another frame."""
    if not seen or "." not in digest:
        return None
    seen_frame, *seen_parts = seen.split(".")
    frame, *parts = digest.split(".")
    if seen_frame != frame or len(seen_parts) != len(parts):
        return None
    return [(number, old, new) for number, (old, new) in enumerate(zip(seen_parts, parts)) if old != new]


def _hidden(id_: str, name: str, value, oob: bool = False) -> str:
    return (f'<input type="hidden" class="region-hash" id="{id_}" name="{name}" value="{value}"'
            + (' hx-swap-oob="true">' if oob else ">"))


def region_inputs(context: dict, digests: dict[str, str] | None = None, *, oob: bool = False,
                  held: dict[str, str] | None = None) -> str:
    """The hidden inputs the page sends back with every htmx request (``hx-include``):
    the digest of each region it shows, the card picked, and the log's window.  An
    answer leaves out the digests the page already ``held``."""
    digests = digests if digests is not None else region_digests(context)
    held = held or {}
    pick = context["show"].picked["code"] if context["show"].picked else ""
    parts = [_hidden(f"seen-{region}", f"seen_{region}", digest, oob) for region, digest in digests.items()
             if held.get(region) != digest]
    parts.append(_hidden("pick-state", "picked", pick, oob))
    parts.append(_hidden("log-limit", "log", context["log_limit"], oob))
    return "".join(parts)


def regions_response(request, context: dict, status: int = 200, *, count_turns: bool = True) -> HttpResponse:
    """The regions that changed, as htmx out-of-band swaps, with their new digests; a
    region whose digest the page sent back is neither drawn nor sent, and of a region
    in parts whose frame the page holds, only the parts that changed are.  With
    ``count_turns`` the answer also brings the count of games waiting for the player."""
    digests = region_digests(context)
    held = {region: request.GET.get(f"seen_{region}", request.POST.get(f"seen_{region}")) for region in REGIONS}
    region_parts_, still_hash = None, _prefix_hashes(context)[2]
    changed = []  # (partial, the extra context it is drawn with)
    for region in REGIONS:
        if held[region] == digests[region]:
            continue
        if region == "log":
            log_changes = _log_changes(held[region], digests[region], context)
            changed += log_changes if log_changes is not None else [("games/game.html#log", {"oob": True})]
            continue
        changed_parts = _changed_parts(held[region], digests[region])
        if changed_parts is None:
            changed.append((f"games/game.html#{region}", {"oob": True}))
        else:
            region_parts_ = region_parts_ or region_parts(context)
            for number, old, new in changed_parts:
                part = region_parts_[region][number]
                added = _cards_added(old, new, part, still_hash) if part[4] is not None else None
                if added:
                    changed.append(("games/game.html#plane_cells_added",
                                    {**part[3], "added": added, "part_id": part[1]}))
                else:
                    changed.append((f"games/game.html#{part[0]}", {**part[3], "part_oob": True}))
    parts = []
    if changed:
        # One context for them all: the context processors run once, not once per region.
        drawing = _drawing(context, request)
        partials = [(get_template(name).template, extra) for name, extra in changed]
        with drawing.bind_template(partials[0][0]):
            for partial, extra in partials:
                with drawing.push(extra):
                    parts.append(partial.render(drawing))
    parts.append(region_inputs(context, digests, oob=True, held=held))
    response = HttpResponse("".join(parts), status=status)
    if count_turns:
        # The games waiting elsewhere, found for "Next game waiting" (this one asks no more).
        elsewhere = context["waiting_elsewhere"]
        count = turn_count(request.user) if elsewhere is None else len(elsewhere)
        response["HX-Trigger"] = json.dumps({"turn-count": {"value": count}})
    return response


def _drawing(context: dict, request):
    """The template context the game page and its answers are drawn in.  Its numbers
    (counts, move numbers, the version in every move form) are drawn as plain digits, not
    through the locale's number format: the same text in the site's English, without the
    12 µs each of number_format (an answer draws a dozen or more)."""
    drawing = make_context(context, request)
    drawing.use_l10n = False
    return drawing


def render_page(request, context: dict, status: int = 200) -> HttpResponse:
    """The whole page, holding the digests of its regions for the htmx requests to come."""
    context["region_inputs"] = mark_safe(region_inputs(context))
    return HttpResponse(get_template("games/game.html").template.render(_drawing(context, request)), status=status)


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
    seat = next(iter(_POLLED_SEAT(game_id, request.user.pk)), None)
    if seat is None:
        raise Http404("No such game.")
    for name in services.NEWEST:
        setattr(seat.game, name, getattr(seat, name))
    return seat


@login_required
@require_GET
def version(request, game_id):
    """Tiny and cheap: 204 while nothing changed, else an htmx event that refreshes the page."""
    try:
        seat = _seat_for_poll(request, game_id)
    except Http404:
        # Who left the table still watches it (the rare case, so the slower load).
        game, seat = get_game_for(request, game_id, left=True)
        if seat.status != LEFT:
            raise
    else:
        game = seat.game
        mark_seen(seat)
    if request.GET.get("v") != poll_stamp(game):
        if "seen_status" in request.GET:
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
            record = services.submit_move(game_id, request.user, chosen, expected,
                                          confirmed=bool(request.POST.get("confirmed")),
                                          newest_moves=LOG_WINDOW if request.htmx and log_limit(request) == LOG_WINDOW
                                          else 0)
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
            game = record.game
            if not request.htmx:
                return redirect(game)
            seat = _seat_in(game, request.user)
            # Only a seat asked to act can move, so while it is still asked (a solo game,
            # a turn of several moves) this game counts as it did among those waiting for
            # the player, and the count the page shows stands (its polling brings changes
            # made elsewhere): no query for it.
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
