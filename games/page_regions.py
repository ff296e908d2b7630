"""The game page's regions: what the page is drawn from, what it holds of what it shows,
and which regions and parts of it an answer draws and sends.  The views
(``games.views``, ``games.clocks.views``, ``games.computer.views``) call
``game_context`` (what the page and every region are drawn from), then ``render_page``
(the whole page) or ``regions_response`` (an htmx answer); the poll's view compares the
page's stamp with ``poll_stamp``.

The protocol between the page and the server:

- **The page is regions.**  ``REGIONS`` are the named partials of ``games/game.html``
  (status, board, planes, hand, log, chat, actions, poll); the same template draws the
  whole page and each region alone, swapped out of band (``hx-swap-oob``) by its id.
- **The page holds a digest of each region** it shows, in hidden inputs of class
  ``region-hash`` (``#seen-status`` named ``seen_status``, and so on: ``region_inputs``),
  with the card picked (``picked``) and the log's window (``log``).  A digest is made from
  what the region is drawn from, never from its HTML, so it costs no drawing
  (``region_digests``): the reader (seat, names, time zone, and a hash of the templates,
  so a page from before a deploy gets every region anew), the game's version and status
  where the region shows a move form (a region of cards only is the same HTML at any
  version), the presentation's fields it shows and its own extras (a message, the clock,
  the newest chat line, the poll stamp).  A partial that starts reading more must say so
  there.
- **It sends them back with every htmx request** (``hx-include=".region-hash"`` on the
  page): a move, a chat line, a preference, a given day, a hint, and the refresh a poll
  asks for.
- **The server draws and sends only what differs** (``regions_response``): a region
  whose digest the page sent back is neither drawn nor sent.  The regions that grow with
  the game (the board's spaces and the encounter's slots, the planes' columns and the
  piles, the log's entries) and the hand (its cards) have a digest of their frame
  followed by one short token per part, dotted (``region_parts``): while the frame is
  the one the page holds, only the parts whose token changed are sent, each swapped by
  its own id; a plane's column whose only change is cards played onto it gets those
  cards appended (its token also counts and digests its cards: ``_cards_added``).  The
  answer ends with the hidden inputs of the digests that changed, so the page holds
  what it now shows.
- **The log's window.**  The page's log shows the newest ``LOG_WINDOW`` moves (and the
  clock's events among them) and as many of the engine's lines; "Show earlier moves"
  widens it (``?log=N``, which the page then keeps in its ``log`` input), and the
  history page keeps the whole record.  Each entry's token names it (``181_9f2c…``, or
  only its digest after the move before it: ``_log_token``), so an answer deletes the
  entries gone out of the window, draws again those whose words or time changed, and
  appends the new ones (``_log_changes``); it sends the whole log when the page holds
  another frame, when an entry came before one the page keeps, or when redrawing most
  of its entries would cost more.
- **Polls and moves.**  Every open page polls ``games:version`` with its stamp
  (``poll_stamp``: the version, the status, the newest chat line, the clock's deadline,
  the newest event: a day given, a seat taken over), every 3 s while someone else is to
  act or the game has not begun, every 5 or 20 s on one's own turn.  The answer is a 204 while
  nothing changed (with the count of games waiting for the player), else an
  ``HX-Trigger: game-changed``, on which the page asks for itself by htmx, digests
  included, and gets back the regions that changed like any answer.  A move's answer is
  drawn from the game ``services.submit_move`` returned, loaded once under its lock (with
  the log's default window, the newest moves come back from the statement that wrote the
  move); while the seat is still asked to act it brings no new count of waiting games
  (no query for it).  A move that hands the turn to a quick computer player (the greedy
  level: ``games.computer.answer``) then plays the computer's move in the same request,
  once its own is committed, through the worker's path (``services.submit_move`` under
  the lock, with the log's window read back as for the player's), and the answer is drawn
  from the game as the computer left it: the player's move and the computer's come in one
  answer (its regions diffed against the digests the page sent, as always), and the
  page's poll goes back to its slow pace.  Where the worker played it first, the game is
  loaded again; a searching level's move is the worker's, and the fast poll finds it.
  Without JavaScript the redirect comes after the computer's move, so the page it opens
  shows it.
- **A refresh yields to the player.**  An answer is drawn against the digests and the
  pick its request carried; the card picked is the page's own state, not the server's.
  So the page (``static/games/game.js``) swaps a refresh's answer (the poll's, or the
  fetch its event sets off) only if none of the player's requests from the game was on
  its way while it was: a poll sent just before a pick and answered after it was drawn
  with no card picked, and put the card back down.  Such an answer is let go whole (no
  region without its digest), and the page asks again once the player's requests are
  answered, with what it holds then.
- **What stays constant in cost.**  A move late in a long game costs what an early one
  does, in queries, time and bytes: the log's window is fixed, the growing regions are
  sent in parts, each value of the presentation is read with ``repr`` once per answer
  (``_Reprs``, for the seat names to word and the digests alike), each part's digest
  goes on from its reader's hash made once (``_prefix_hashes``), a part's token is eight
  hex digits (a region's sixteen), and the answer's regions are drawn in one template
  context (the context processors run once).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import re
from collections import namedtuple

from django.contrib.humanize.templatetags.humanize import NaturalTimeFormatter, naturaltime
from django.http import HttpResponse
from django.template.context import make_context
from django.template.loader import get_template
from django.utils import timezone, translation
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import mark_safe

from games.clocks import deadlines
from games.engine.words import for_reader, shared_result
from games.forms import NoteForm
from games.models import ChatMessage, Game, GameEvent, Move, Note, Seat
from games.presenters.common import Choice
from games.registry import present
from games.templatetags import game_parts
from games.turns import turn_count, waiting
from sefirot_site.prepared import PreparedQuery

# The regions of the game page, each a {% partialdef %} of games/game.html.  htmx requests
# get back only the regions whose HTML differs from what the page shows (it sends a hash
# of each), swapped out of band.
REGIONS = ("status", "board", "planes", "hand", "log", "chat", "actions", "poll")


# The status of the unsaved seat of a player who left (never stored): read-only.  Made by
# views.get_game_for; the page drawn for it offers no move, no chat and no clock.
LEFT = "left"
# The same for the maker of a game of computer players alone (services.watches_without_a_seat).
WATCHING = "watching"

# The status of the unsaved seat of anyone else looking at a public game (games.access):
# the view of no seat, no move, no hand, no chat, no notes; the clock to read only.
SPECTATOR = "spectator"


# --- what the page is drawn from ----------------------------------------------------------


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
    """The presentation's values as repr gives them, each made once per answer: ``worded``
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


def worded(show, seat_index: int, names: dict[int, str], reprs: _Reprs | None = None):
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
    ("You and Bob lost together").  Whoever looks on without a seat reads
    ``_result_for_onlookers``."""
    if game.rules.cooperative and game.outcome and game.outcome.get("result") in ("win", "loss"):
        said = shared_result(game.outcome["result"] == "win",
                             [s.player_name for s in seats if s.index != seat.index])
        return said[:1].upper() + said[1:]
    return game.result_for(seat.index).capitalize()


def _result_for_onlookers(game: Game, seats: list[Seat]) -> str:
    """The outcome line's result for whoever looks on without a seat (a spectator, the
    maker of a game of computer players alone, a player who left), who is none of the players: a game played
    alone or together is won or lost by its players, named; a game against each other
    names its winners on the line's own (``winners``), and a draw is a draw."""
    outcome = game.outcome or {}
    if outcome.get("result") == "draw":
        return "A draw"
    if outcome.get("result") not in ("win", "loss") or (game.players > 1 and not game.rules.cooperative):
        return ""
    players = [s.player_name for s in seats]
    names = ", ".join(players[:-1]) + " and " + players[-1] if len(players) > 1 else players[0]
    won = outcome["result"] == "win" if game.players > 1 else 0 in outcome.get("winners", [])
    return f"{names} {'won' if won else 'lost'}" + (" together" if len(players) > 1 else "")


def game_context(request, game: Game, seat: Seat, *, pick: str | None = None, message: str = "",
                 notice: str = "", confirm: dict | None = None) -> dict:
    """What the page and its regions are drawn from.  What only some regions read (the
    chat lines, the notes, the journal link) is loaded when a region that shows it is
    drawn, so an answer whose regions are unchanged does not ask for it."""
    rules = game.rules
    state = game.load_state()
    started = game.status == Game.Status.ACTIVE or (game.is_over and game.started_at is not None)
    left = seat.status == LEFT
    spectator = seat.status == SPECTATOR
    watching = seat.status == WATCHING  # the maker of a game of computer players alone
    # No seat of their own (left it, watches computers, or a spectator): read-only, the view of no seat.
    onlooker = left or spectator or watching
    show = present(rules, state, seat.index, pick=pick, interactive=game.status == Game.Status.ACTIVE and not onlooker)
    # The engine's lines the page shows: the newest, as many as the log's window (the
    # "Show earlier lines" link asks for more); only those are worded and digested.
    limit = log_limit(request)
    events_count = len(show.events)
    show.events = show.events[-limit:]
    seats = list(game.seats.all())
    # The engine's words name seats; the page names players, and the reader is "you".
    names = {s.index: s.player_name for s in seats}
    reprs = _Reprs()
    show = worded(show, seat.index, names, reprs)
    if confirm:  # the engine's label names seats ("give to Seat 2"): say them as people
        confirm = {**confirm, "label": for_reader(confirm["label"], seat.index, names)}
    to_act = list(game.to_act) if game.status == Game.Status.ACTIVE else []
    my_turn = seat.index in to_act
    # A computer player answers within a second or so of the move (a worker plays it).
    computer_thinking = bool(to_act) and all(s.user is not None and s.user.is_computer
                                             for s in seats if s.index in to_act)
    if watching and game.status == Game.Status.ACTIVE:
        thinking = [s.player_name for s in seats if s.index in to_act]
        turn = "You are watching: computer players play every seat." + (
            f" {' and '.join(thinking)} {'is' if len(thinking) == 1 else 'are'} thinking…" if thinking else "")
    elif left and game.status == Game.Status.ACTIVE:
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
    elsewhere = None if my_turn or onlooker else [url for url in waiting(user) if url != game.get_absolute_url()]
    note_form = SimpleLazyObject(lambda: NoteForm(instance=next(iter(_NOTE(game.pk, user.pk)), None)))
    # Who left the table no longer talks at it (nor reads what the players say there).
    # Nor does a spectator: the chat is the players' own.
    chat = SimpleLazyObject(lambda: _CHAT_LINES(game.pk)) if game.players > 1 and not onlooker else None
    # Only the viewer's own entry: each player's journal is private (journal.Entry.owner).
    journal_entry = SimpleLazyObject(lambda: game.journal_entries.filter(owner=user).first()) \
        if game.is_over and not spectator else None
    return {
        "game": game, "seat": seat, "seats": seats, "show": show, "started": started,
        "my_turn": my_turn, "turn": turn, "message": message, "notice": notice, "confirm": confirm,
        # An onlooker reads the clock as a player does (who must act, by when), with nothing to do about it.
        "clock": deadlines.clock_facts(game, seat) if not onlooker else deadlines.clock_for_onlookers(
            game, [s.player_name for s in seats if s.index in to_act], deadlines.paused_clock_of(game)),
        "journal_entry": journal_entry,
        "left": left, "spectator": spectator, "watching": watching,
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
        "poll_every": game_parts.POLL_FAST if computer_thinking and not onlooker else "3s" if not my_turn
        else "5s" if len(to_act) > 1 else "20s",
        "live": not game.is_over,
        "outcome": game.outcome,
        "result": _result_line(game, seat, seats) if not onlooker else _result_for_onlookers(game, seats),
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


# --- the digests the page holds -----------------------------------------------------------


@functools.cache
def _templates_key() -> str:
    """Changes with the game page's templates (and the parts of it drawn in Python), so a
    page from before a deploy gets every region anew rather than keep one drawn by the old
    template."""
    digest = hashlib.sha1()
    sources = [get_template(name).origin.name
               for name in ("games/game.html", "games/_pick.html", "games/_card.html", "games/_move_form.html",
                            "games/_clock.html")]
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
    reprs = context.get("_reprs") or _Reprs()  # those worded() made (game_context), or none yet

    def shown(*names):
        # repr of the list of those fields, from each field's own (read once by worded())
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


# --- the answer: what differs from what the page holds ------------------------------------


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


def holds_digests(request) -> bool:
    """Whether the request carries the digests of the page's regions: the fast poll does
    (a computer player thinking, ``game_parts.POLL_FAST``), so the regions that changed
    can come in its own answer rather than after an event and a second fetch."""
    return f"seen_{REGIONS[0]}" in request.GET


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
    if count_turns and request.user.is_authenticated:
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
