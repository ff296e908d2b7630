"""Everything that changes a game, in one place: views, mail replies and tasks call these.

Every mutation follows check-then-do under ``transaction.atomic()`` with the game row
locked (``select_for_update``): the checks see the committed state, and two requests for
the same game queue up instead of interleaving.  Errors are ``GameError`` subclasses whose
message is for a person and whose ``status`` is the HTTP status a view should answer with;
the engine's ``IllegalMove`` (a ``ValueError``) passes through unchanged (answer 400).

Starting games
    ``start_game(creator, mode, options, *, opponent=None, invite_email="",
    open_challenge=False, time_control=None, seed=None, rematch_of=None, creator_seat=0) -> Game``
    A solo game is ACTIVE at once.  A two-player game seats the creator at seat 0 (or
    ``creator_seat``) and leaves the other seat INVITED (a user, or an email address with an invite token; either way
    the worker mails the invitation) or OPEN (a lobby challenge).  The engine state is created at once
    from the seed, so the record is fixed from the start.
    ``accept_invitation(game_id, user, token=None)``, ``decline_invitation(...)``,
    ``accept_challenge(game_id, user)``, ``cancel_game(game_id, user)``,
    ``rematch(game_id, user) -> Game`` (the players swap seats, so the one who moved
    second moves first; asked twice, or by both players, it is the same one game),
    ``resign(game_id, user)``.
    With ``seats`` (2-6, as the engine allows) and ``invitees`` (users, computer players,
    email addresses, or None for an open seat) it makes a table: the creator at seat 0, the
    invitees offered the next seats, the rest open in the lobby; it starts when every seat is
    taken, or when its creator calls ``start_with_seated(game_id, user)`` with at least two
    seated (the seats close up and the deal is made for that many from the same seed).  A
    declined seat of a table goes to the lobby.  With ``creator_plays=False`` every seat is
    a computer player's and the maker watches (``watches_without_a_seat``, the one rule of
    who sees a game as no seat besides a player who left it).  A rematch of a table keeps its order from
    the asker round and passes the deal on.

Playing
    ``submit_move(game_id, actor, move, expected_version, *, confirmed=True) -> Move``
    ``actor`` is a ``User`` (their seat in this game) or a ``Seat`` (e.g. found by its
    ``reply_token`` for a move by mail).  The game, its seats and their users are loaded
    once, under the lock; the record's ``game`` is that game as the move left it.  With
    ``confirmed=False`` a seat that asks before moves drawing hidden cards gets
    ``NeedsConfirmation`` (nothing played).  Raises ``NotYourSeat`` (403), ``GameNotRunning``
    (409), ``StaleMove`` (409: the board of ``expected_version`` no longer fits, e.g. a
    doubled submit or a mail for a turn already played) or ``IllegalMove`` (400, the
    engine's message).  On any error nothing is written.
    ``still_current(game, seat_index, version)``: whether a board (page or mail) built at
    ``version`` still fits that seat.  Besides the game's own version, that is a board of
    a seat asked to act together with others, when only the others moved since and its
    own choices are the same: seats asked at once act in any order.

Seats that leave a game of three or more
    ``take_over_seats(game_id, indexes, reason)``: a house computer player (``house_player``,
    one user per seat number) takes each seat and the game goes on for the others
    (``seat_taken_over`` queues its move); once no person is left it is abandoned.
    ``resign``, the clocks' time-out and account deletion call it where ``takes_over(game)``.
    Each seat taken over is a ``GameEvent`` (TAKEN_OVER, with the player who left):
    ``taken_over_lines`` says it for the log, the history and the turn mail, and
    ``left_game_for``/``games_left_by`` let that player still watch the game, read-only.

Ending without an outcome
    ``abandon_game(game_id, reason)`` ends an ACTIVE game as ABANDONED (time-outs of
    co-operative and solo games, a seat whose account was deleted).  A Warring Planets
    time-out is instead the late seat's ``{"type": "forfeit"}`` move through
    ``submit_move(game_id, seat, ..., game.version)``.

Signals (``games.signals``), each sent through ``transaction.on_commit`` so receivers
never see a rolled-back change and always find the committed rows:
    ``turn_changed(game_id, version, to_act)``: the set of seats that must act changed,
        including the start of a game (the seats to act first).  Not sent when the same
        seats go on acting (the steps of one turn), nor when the game ends.
    ``move_applied(game_id, version, seat, to_act, computer_to_act, clocked, game)``: after
        every applied move (``game``: the locked game as the move left it, so a receiver
        need not load it again).
    ``game_finished(game_id, status, version)``: the game ended (FINISHED with the
        engine's outcome, or ABANDONED).
    ``seat_invited(game_id, seat_id)``: a seat was offered to a user or an address.

Clocks: with ``time_control`` set (days per move), ``deadline`` is set to now + days when
the game starts and after every applied move while it goes on, and cleared when it ends.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from games import signals
from games.engine import IllegalMove, get_rules
from games.engine.words import for_reader
from games.models import Game, GameEvent, Move, Seat, new_token
from sefirot_site.prepared import PreparedQuery, update_then_insert

__all__ = [
    "GameError", "StaleMove", "NotYourSeat", "GameNotRunning", "CannotStart", "CannotJoin",
    "IllegalMove", "start_game", "accept_invitation", "decline_invitation", "accept_challenge",
    "cancel_game", "rematch", "resign", "abandon_game", "submit_move", "still_current", "seat_of",
    "next_deadline", "start_with_seated", "leave_waiting_table", "take_over_seats", "takes_over", "house_player",
    "left_game_for", "watches_without_a_seat", "taken_over_lines", "games_left_by", "NeedsConfirmation", "game_with_seats",
    "keep_seats", "newest_ids", "NEWEST",
]


class GameError(Exception):
    """A refused request; ``str(error)`` is for the player, ``status`` for the HTTP answer."""

    status = 400

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class StaleMove(GameError):
    status = 409


class NotYourSeat(GameError):
    status = 403


class GameNotRunning(GameError):
    status = 409


class CannotStart(GameError):
    status = 400


class CannotJoin(GameError):
    status = 409


class NeedsConfirmation(GameError):
    """Not played: the seat asks once more before a move that draws hidden cards
    (``submit_move(..., confirmed=False)``).  ``label`` is the move in words; ``game`` and
    ``seat`` are as loaded for the check, so the page can be drawn from them."""

    status = 200

    def __init__(self, label: str, game: Game, seat: Seat):
        super().__init__(label)
        self.label, self.game, self.seat = label, game, seat


NEWEST = ("last_chat_id", "last_event_id")


def newest_ids(game: str) -> dict:
    """The annotations of the newest chat line's and clock event's ids (``NEWEST``) of
    the game whose id is the field ``game`` of the query annotated."""
    from django.db.models import OuterRef, Subquery

    from games.models import ChatMessage, GameEvent

    return {name: Subquery(model.objects.filter(game=OuterRef(game)).order_by("-pk").values("pk")[:1])
            for name, model in zip(NEWEST, (ChatMessage, GameEvent))}


def _game_seats_query(game_id) -> QuerySet:
    return Seat.objects.select_related("game", "user").filter(game_id=game_id).annotate(**newest_ids("game_id"))


# Every move, page and poll of a game runs one of these: compiled once (sefirot_site.prepared).
_SEATS = PreparedQuery(_game_seats_query, 1)
_SEATS_LOCKED = PreparedQuery(lambda game_id: _game_seats_query(game_id).select_for_update(of=("game",)), 1,
                              locks=True)


def _locked(game_id: int, *, seats: bool = False) -> Game:
    game = game_with_seats(game_id, lock=True) if seats else Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        raise NotYourSeat("There is no such game.")
    return game


def game_with_seats(game_id: int, *, lock: bool = False) -> Game | None:
    """The game with its seats and their users, and the newest chat line's and clock
    event's ids (``NEWEST``, the page's poll stamp reads them), in one query: the seats
    joined to their game (a move's page, its mails and its deadline all read them).  The
    game is given its seats as if prefetched, so ``game.seats.all()`` asks nothing more.
    With ``lock`` the game's row alone is locked.  None if there is no such game (every
    game has its seats from the start)."""
    seats = (_SEATS_LOCKED if lock else _SEATS)(game_id)
    if not seats:
        return None
    game = seats[0].game
    for name in NEWEST:
        setattr(game, name, getattr(seats[0], name))
    return keep_seats(game, seats)


def keep_seats(game: Game, seats: list[Seat]) -> Game:
    """``game`` holding ``seats`` (all of its seats, loaded joined to it) as a prefetch
    would: ``game.seats.all()`` asks nothing more, and each seat's game is this one."""
    for seat in seats:
        seat.game = game
    prefetched = game.seats.all()
    prefetched._result_cache, prefetched._prefetch_done = seats, True
    game._prefetched_objects_cache = {"seats": prefetched}
    return game


def _loaded_seats(game: Game) -> list[Seat] | None:
    """The game's seats if they were loaded with it (``game_with_seats``), else None."""
    cache = getattr(game, "_prefetched_objects_cache", {})
    return list(cache["seats"]) if "seats" in cache else None


def next_deadline(game: Game, now=None):
    """When the seats to act run out of time, counted from ``now``; None without a clock,
    or while only computer players are to act (a computer never runs out of time)."""
    if game.time_control is None:
        return None
    seats = _loaded_seats(game)
    if seats is not None:
        human_to_act = any(s.index in game.to_act and s.user is not None and not s.user.computer_level
                           for s in seats)
    else:
        human_to_act = Seat.objects.filter(game=game, index__in=game.to_act, user__computer_level="").exists()
    if game.to_act and not human_to_act:
        return None
    return (now or timezone.now()) + timedelta(days=game.time_control)


def seat_of(game: Game, actor) -> Seat:
    """The joined seat ``actor`` (a User or a Seat) holds in ``game``, or NotYourSeat."""
    loaded = _loaded_seats(game)
    if isinstance(actor, Seat):
        seat = actor if actor.game_id == game.pk else None
        if seat is not None and loaded is not None:
            seat = next((s for s in loaded if s.pk == seat.pk and s.status == Seat.Status.JOINED), None)
        elif seat is not None:
            seat = Seat.objects.filter(pk=seat.pk, status=Seat.Status.JOINED).first()
    elif getattr(actor, "is_authenticated", False):
        if loaded is not None:
            seat = next((s for s in loaded if s.user_id == actor.pk and s.status == Seat.Status.JOINED), None)
        else:
            seat = game.seats.filter(user=actor, status=Seat.Status.JOINED).first()
    else:
        seat = None
    if seat is None or seat.user_id is None:
        raise NotYourSeat("You do not have a seat in this game.")
    return seat


def _send_on_commit(signal, **kwargs) -> None:
    transaction.on_commit(lambda: signal.send(sender=Game, **kwargs))


_BEFORE_COMMIT = {
    signals.turn_changed: signals.turn_changed_before_commit,
    signals.move_applied: signals.move_applied_before_commit,
    signals.game_finished: signals.game_finished_before_commit,
    signals.seat_invited: signals.seat_invited_before_commit,
    signals.seat_taken_over: signals.seat_taken_over_before_commit,
}


def _announce(signal, **kwargs) -> None:
    """Send the signal's before-commit twin now (durable consequences are recorded in this
    transaction) and the signal itself once the transaction committed."""
    _BEFORE_COMMIT[signal].send(sender=Game, **kwargs)
    _send_on_commit(signal, **kwargs)


def _activate(game: Game, now) -> None:
    """Start play once every seat is taken (the game row is locked by the caller)."""
    game.status = Game.Status.ACTIVE
    game.started_at = now
    game.deadline = next_deadline(game, now)
    game.save(update_fields=["status", "started_at", "deadline", "updated_at"])
    _announce(signals.turn_changed, game_id=game.pk, version=game.version, to_act=list(game.to_act))


# --- starting games ------------------------------------------------------------------


def start_game(creator, mode: str, options: dict | None = None, *, opponent=None, invite_email: str = "",
               open_challenge: bool = False, time_control: int | None = None, seed: int | None = None,
               rematch_of: Game | None = None, creator_seat: int = 0, seats: int | None = None,
               invitees: list | None = None, creator_looking: bool = False, public: bool = True,
               creator_plays: bool = True) -> Game:
    """A new game of ``mode``.  ``creator_looking``: made on the web, whose answer takes its
    maker to the game's page; their seat counts as seen now, so a first turn mail that
    would only repeat that page waits like any other while they look
    (``games.mail.tasks``), instead of racing their browser to it.  ``public``: anyone
    may watch it once it begins (``Game.public``); False keeps it to its players.  With
    ``seats`` and ``creator_plays=False``, computer players take every seat (``invitees``)
    and the maker watches (``watches_without_a_seat``)."""
    try:
        rules = get_rules(mode)
    except ValueError as error:
        raise CannotStart(str(error)) from None
    if seats is not None:
        return _start_table(creator, rules, options, seats=seats, invitees=list(invitees or []),
                            time_control=time_control, seed=seed, rematch_of=rematch_of,
                            creator_looking=creator_looking, public=public, creator_plays=creator_plays)
    invite_email = (invite_email or "").strip()
    two_player = bool(opponent or invite_email or open_challenge)
    if sum(map(bool, (opponent, invite_email, open_challenge))) > 1:
        raise CannotStart("Invite one player, or post an open challenge, not both.")
    players = 2 if two_player else 1
    if not rules.min_players <= players <= rules.max_players:
        if players == 1:
            raise CannotStart(f"{rules.title} is for two players: invite someone or post an open challenge.")
        raise CannotStart(f"{rules.title} is played alone.")
    if opponent is not None and opponent.pk == creator.pk:
        raise CannotStart("You cannot invite yourself.")
    if creator_seat not in range(players):
        raise CannotStart("There is no such seat in this game.")
    if time_control is not None and time_control not in Game.TimeControl.values:
        raise CannotStart("Choose no clock, or 1, 3 or 7 days per move.")
    if invite_email:
        existing = get_user_model().objects.filter(email__iexact=invite_email, is_active=True).first()
        if existing is not None and existing.pk == creator.pk:
            raise CannotStart("You cannot invite yourself.")
    if seed is None:
        seed = secrets.randbits(62)  # fits a signed 64-bit column
    try:
        state = rules.new_game(seed, players, options or {})
    except ValueError as error:  # unknown variant or option: the engine says which
        raise CannotStart(str(error)) from None

    now = timezone.now()
    with transaction.atomic():
        game = Game.objects.create(
            mode=mode, options=state["options"], seed=seed, players=players,
            status=Game.Status.INVITED, version=0, state=rules.dumps(state),
            to_act=rules.to_act(state), outcome=None, time_control=time_control,
            created_by=creator, rematch_of=rematch_of, public=bool(public),
        )
        Seat.objects.create(game=game, index=creator_seat, user=creator, status=Seat.Status.JOINED, joined_at=now,
                            seen_at=now if creator_looking else None)
        other_seat = 1 - creator_seat
        if players == 1:
            _activate(game, now)
            return game
        if open_challenge:
            Seat.objects.create(game=game, index=other_seat, status=Seat.Status.OPEN)
            game.status = Game.Status.OPEN
            game.save(update_fields=["status"])
            return game
        if opponent is not None and opponent.is_computer:
            # A computer player takes its seat at once: nobody to invite or to wait for.
            Seat.objects.create(game=game, index=other_seat, user=opponent, status=Seat.Status.JOINED, joined_at=now)
            _activate(game, now)
            return game
        seat = Seat.objects.create(
            game=game, index=other_seat, user=opponent, invited_email=invite_email if opponent is None else "",
            invite_token=new_token() if opponent is None else None, status=Seat.Status.INVITED,
        )
        _announce(signals.seat_invited, game_id=game.pk, seat_id=seat.pk)
        return game


def _check_clock(time_control) -> None:
    if time_control is not None and time_control not in Game.TimeControl.values:
        raise CannotStart("Choose no clock, or 1, 3 or 7 days per move.")


def _start_table(creator, rules, options, *, seats: int, invitees: list, time_control, seed,
                 rematch_of, creator_looking: bool = False, public: bool = True,
                 creator_plays: bool = True) -> Game:
    """A game of ``seats`` seats (2-6 where the engine allows): the creator sits first; each
    invitee (a user, a computer player or an email address) is offered the next seat; the
    seats left over are open in the lobby.  It starts once every seat is taken, or earlier
    when its creator starts it (``start_with_seated``).  Without ``creator_plays`` the
    invitees are computer players, one for every seat, and the game starts at once for its
    maker to watch."""
    if type(seats) is not int or not rules.min_players <= seats <= rules.max_players:
        raise CannotStart(f"{rules.title} is for {rules.min_players} to {rules.max_players} players.")
    if not creator_plays:
        _check_watched_table(creator, rules, seats, invitees)
    elif len(invitees) > seats - 1:
        raise CannotStart(f"There are only {seats - 1} other seats to offer.")
    _check_clock(time_control)
    users, addresses = [], []
    for invitee in invitees:
        if invitee is None:  # a seat left open in its place (a rematch's departed player)
            users.append(None)
            continue
        if isinstance(invitee, str):
            address = invitee.strip()
            # Only an address its owner verified names an account: anyone may sign up with
            # another's address, and the seat would go to them.
            found = get_user_model().objects.filter(emailaddress__email__iexact=address, emailaddress__verified=True,
                                                    is_active=True).first()
            if found is None:
                if address.lower() in addresses:
                    raise CannotStart(f"{address} is invited twice.")
                addresses.append(address.lower())
            invitee = found if found is not None else address
        if not isinstance(invitee, str):
            if invitee.pk == creator.pk:
                raise CannotStart("You cannot invite yourself.")
            if invitee in users and not invitee.is_computer:
                raise CannotStart(f"{invitee} is invited twice.")
        users.append(invitee)
    computers = [u for u in users if u is not None and not isinstance(u, str) and u.is_computer]
    if len(computers) > len({u.pk for u in computers}):
        raise CannotStart("Each computer player can take one seat of a game; choose different ones.")
    if seed is None:
        seed = secrets.randbits(62)
    try:
        state = rules.new_game(seed, seats, options or {})
    except ValueError as error:
        raise CannotStart(str(error)) from None
    now = timezone.now()
    with transaction.atomic():
        if not creator_plays:
            _check_watched_count(creator)
        game = Game.objects.create(
            mode=rules.slug, options=state["options"], seed=seed, players=seats,
            status=Game.Status.INVITED, version=0, state=rules.dumps(state),
            to_act=rules.to_act(state), outcome=None, time_control=time_control,
            created_by=creator, rematch_of=rematch_of, public=bool(public),
        )
        first = 0
        if creator_plays:
            Seat.objects.create(game=game, index=0, user=creator, status=Seat.Status.JOINED, joined_at=now,
                                seen_at=now if creator_looking else None)
            first = 1
        invited = []
        for index in range(first, seats):
            invitee = users[index - first] if index - first < len(users) else None
            if invitee is None:
                Seat.objects.create(game=game, index=index, status=Seat.Status.OPEN)
            elif isinstance(invitee, str):
                invited.append(Seat.objects.create(game=game, index=index, invited_email=invitee,
                                                   invite_token=new_token(), status=Seat.Status.INVITED))
            elif invitee.is_computer:
                Seat.objects.create(game=game, index=index, user=invitee, status=Seat.Status.JOINED, joined_at=now)
            else:
                invited.append(Seat.objects.create(game=game, index=index, user=invitee,
                                                   status=Seat.Status.INVITED))
        for seat in invited:
            _announce(signals.seat_invited, game_id=game.pk, seat_id=seat.pk)
        _settle_waiting(game, now)
        return game


# How many games of computer players alone one person may have running at once: each keeps
# a worker busy from its first move to its last, with nobody's turn to wait for.
WATCHED_AT_ONCE = 3


def _check_watched_table(creator, rules, seats: int, invitees: list) -> None:
    """A game its maker only watches: a computer player in every seat (how many such games
    run at once is checked where the game is made, ``_check_watched_count``)."""
    computers = [u for u in invitees if u is not None and not isinstance(u, str) and u.is_computer]
    if len(computers) != len(invitees) or len(invitees) != seats:
        raise CannotStart(f"To watch without a seat, choose a computer player for each of the {seats} seats.")


def _check_watched_count(creator) -> None:
    """Not more games of computer players alone running at once than ``WATCHED_AT_ONCE``.
    Called in the transaction that makes the game, under a lock of the maker's row: two
    requests at once each counted the games before either made its own, and both passed
    (a fourth game); now the second waits for the first to commit and counts its game.
    FOR NO KEY UPDATE: it queues such checks behind one another, and not the rows others
    write that point at the account (a seat, a session), which only share its key."""
    list(get_user_model().objects.select_for_update(no_key=True).filter(pk=creator.pk).values_list("pk", flat=True))
    running = (Game.objects.filter(created_by=creator, status=Game.Status.ACTIVE)
               .exclude(seats__user=creator).exclude(seats__user__computer_level="").count())
    if running >= WATCHED_AT_ONCE:
        raise CannotStart(f"You are already watching {running} games of computer players; "
                          "let one of them finish first.")


def watches_without_a_seat(game: Game, user) -> bool:
    """The access rule of a game's page for someone without a seat, in one place: the maker
    of a game that only computer players play watches it as no seat (``view(state, None)``,
    no hand, no moves).  A general spectator rule (public games) joins it here."""
    if not getattr(user, "is_authenticated", False) or game.created_by_id != user.pk:
        return False
    seats = _loaded_seats(game)
    if seats is None:
        seats = list(game.seats.select_related("user"))
    # A seat of the house was a person's once (take_over_seats): its maker left that game,
    # and looks on as a player who left (left_game_for), not as one who watches.
    return bool(seats) and all(s.user is not None and s.user.is_computer and not is_house(s.user) for s in seats)


def _settle_waiting(game: Game, now) -> None:
    """A waiting game's status from its seats (the row is locked by the caller): it starts
    when every seat is taken; it waits for invitations while one is out, and is in the
    lobby while it has an open seat and no invitation out."""
    statuses = set(game.seats.values_list("status", flat=True))
    if statuses <= {Seat.Status.JOINED}:
        _activate(game, now)
        return
    status = Game.Status.INVITED if Seat.Status.INVITED in statuses else Game.Status.OPEN
    if game.status != status:
        game.status = status
        game.save(update_fields=["status", "updated_at"])


def leave_waiting_table(game_id: int, user) -> Game:
    """A player seated (or invited) at a table that has not started leaves it: their seat
    is open in the lobby again.  The table's maker leaving cancels it."""
    with transaction.atomic():
        game = _locked(game_id)
        if game.status not in Game.WAITING:
            raise GameNotRunning("Only a game that has not started yet can be left this way.")
        seat = game.seats.filter(user=user).first()
        if seat is None:
            raise NotYourSeat("You do not have a seat in this game.")
        if game.players <= 2 or game.created_by_id == user.pk:
            game.status = Game.Status.CANCELLED
            game.finished_at = timezone.now()
            game.save(update_fields=["status", "finished_at", "updated_at"])
            return game
        seat.user = None
        seat.invited_email = ""
        seat.invite_token = None
        seat.status = Seat.Status.OPEN
        seat.save(update_fields=["user", "invited_email", "invite_token", "status"])
        _settle_waiting(game, timezone.now())
        return game


def start_with_seated(game_id: int, user) -> Game:
    """The creator starts a waiting game with the players seated so far, if the game can be
    played by that many: the seats still open or invited go, the others close up in seat
    order, and the deal is made for that many from the same seed."""
    with transaction.atomic():
        game = _locked(game_id)
        seat_of(game, user)
        if game.status not in Game.WAITING:
            raise GameNotRunning("Only a game that has not started yet can be started now.")
        if game.created_by_id != user.pk:
            raise NotYourSeat("Only the player who made this game can start it early.")
        rules = game.rules
        joined = list(game.seats.filter(status=Seat.Status.JOINED).order_by("index"))
        if len(joined) < max(rules.min_players, 2):
            raise CannotStart(f"{rules.title} needs at least {max(rules.min_players, 2)} players seated "
                              f"to start.")
        options = dict(game.options)
        dealer = options.get("dealer")
        if isinstance(dealer, int):
            # A rematch's dealer, among fewer seats now: the deal stays with the player it
            # passed to, or goes on to the next one seated after an empty seat.
            options["dealer"] = next((k for k, seat in enumerate(joined) if seat.index >= dealer), 0)
        game.seats.exclude(status=Seat.Status.JOINED).delete()
        for index, seat in enumerate(joined):  # each new index is free: the seats close up in order
            if seat.index != index:
                seat.index = index
                seat.save(update_fields=["index"])
        try:
            state = rules.new_game(game.seed, len(joined), options)
        except ValueError as error:
            raise CannotStart(str(error)) from None
        game.players = len(joined)
        game.options = state["options"]
        game.state = rules.dumps(state)
        game.to_act = rules.to_act(state)
        game.save(update_fields=["players", "options", "state", "to_act", "updated_at"])
        _activate(game, timezone.now())
        return game


def _invited_seat(game: Game, user, token: str | None) -> Seat:
    seats = game.seats.filter(status=Seat.Status.INVITED)
    seat = None
    if token:
        seat = seats.filter(invite_token=token).first()
    if seat is None:
        seat = seats.filter(user=user).first() if user is not None else None
    if seat is None:
        raise CannotJoin("This invitation is no longer open.")
    if seat.user_id is not None and seat.user_id != user.pk:
        raise CannotJoin("This invitation is for someone else.")
    return seat


def accept_invitation(game_id: int, user, token: str | None = None) -> Game:
    with transaction.atomic():
        game = _locked(game_id)
        if game.status != Game.Status.INVITED:
            raise CannotJoin("This invitation is no longer open.")
        seat = _invited_seat(game, user, token)
        if game.seats.filter(user=user).exclude(pk=seat.pk).exists():
            raise CannotJoin("You already have a seat in this game.")
        now = timezone.now()
        seat.user = user
        seat.status = Seat.Status.JOINED
        seat.joined_at = now
        seat.invite_token = None  # the link has done its work
        seat.save(update_fields=["user", "status", "joined_at", "invite_token"])
        _settle_waiting(game, now)
        return game


def decline_invitation(game_id: int, user, token: str | None = None) -> Game:
    with transaction.atomic():
        game = _locked(game_id)
        if game.status != Game.Status.INVITED:
            raise CannotJoin("This invitation is no longer open.")
        seat = _invited_seat(game, user, token)
        if game.players > 2:
            # One no does not end a table of several: the seat is offered in the lobby.
            seat.user = None
            seat.invited_email = ""
            seat.status = Seat.Status.OPEN
            seat.invite_token = None
            seat.save(update_fields=["user", "invited_email", "status", "invite_token"])
            _settle_waiting(game, timezone.now())
            return game
        seat.status = Seat.Status.DECLINED
        seat.invite_token = None
        seat.save(update_fields=["status", "invite_token"])
        game.status = Game.Status.DECLINED
        game.finished_at = timezone.now()
        game.save(update_fields=["status", "finished_at", "updated_at"])
        return game


def accept_challenge(game_id: int, user) -> Game:
    with transaction.atomic():
        game = _locked(game_id)
        if game.status not in Game.WAITING or not game.seats.filter(status=Seat.Status.OPEN).exists():
            raise CannotJoin("Someone else took this challenge, or it was withdrawn.")
        if game.seats.filter(user=user).exists():
            if game.players > 2 and game.created_by_id != user.pk:
                raise CannotJoin("You already have a seat in this game.")
            raise CannotJoin("This is your own challenge; wait for someone to accept it.")
        seat = game.seats.filter(status=Seat.Status.OPEN).order_by("index").first()
        if seat is None:
            raise CannotJoin("This challenge has no free seat.")
        now = timezone.now()
        seat.user = user
        seat.status = Seat.Status.JOINED
        seat.joined_at = now
        seat.save(update_fields=["user", "status", "joined_at"])
        _settle_waiting(game, now)
        return game


def cancel_game(game_id: int, user) -> Game:
    """Withdraw an invitation or an open challenge before anyone played.  Only the game's
    maker may: a player who took a seat of someone else's table has not the say over the
    others' seats (an invited player declines instead)."""
    with transaction.atomic():
        game = _locked(game_id)
        seat_of(game, user)
        if game.status not in Game.WAITING:
            raise GameNotRunning("Only a game that has not started yet can be cancelled.")
        if game.created_by_id != user.pk:
            maker = game.created_by
            raise NotYourSeat(f"Only {maker}, who made this game, can cancel it." if maker is not None
                              else "Only the player who made this game can cancel it.")
        game.status = Game.Status.CANCELLED
        game.finished_at = timezone.now()
        game.save(update_fields=["status", "finished_at", "updated_at"])
        game.seats.filter(status__in=[Seat.Status.INVITED, Seat.Status.OPEN]).update(invite_token=None)
        return game


def rematch(game_id: int, user, *, creator_looking: bool = False) -> Game:
    """The same mode, options and clock again, with the seats swapped (a new seed).

    The player who sat second sits first, whoever asks.  A rematch already asked for (a
    doubled click, or both players pressing the button) is the game returned, so the
    other player finds the invitation waiting instead of making a second game.
    """
    with transaction.atomic():
        old = _locked(game_id)  # two requests for a rematch queue up here
        seat = seat_of(old, user)
        if not old.is_over or old.status in (Game.Status.CANCELLED, Game.Status.DECLINED):
            raise GameNotRunning("A rematch can follow only a game that was played to its end.")
        if old.is_daily_deal:
            raise GameNotRunning("A daily deal is played once; tomorrow brings a new one, "
                                 "and a game of your own can be started from New game.")
        asked = (old.rematches.filter(seats__user=user).exclude(status__in=[Game.Status.CANCELLED,
                                                                            Game.Status.DECLINED])
                 .order_by("pk").first())
        if asked is not None:
            return asked
        kwargs = {}
        options = {k: v for k, v in old.options.items()}
        if old.players > 2:
            # The table again, in the same order from the asker round; who left (or whose seat
            # the house played) leaves an open seat.  Where the game has a dealer, the deal
            # passes to the next seat (Tarot Hallow, RULINGS 7).
            seats = {s.index: s for s in old.seats.select_related("user")}
            order = [(seat.index + k) % old.players for k in range(old.players)]
            invitees = []
            for index in order[1:]:
                other = seats[index].user
                keep = other is not None and other.is_active and not other.username.startswith("house-")
                invitees.append(other if keep else None)
            dealer = old.load_state().get("dealer")
            if isinstance(dealer, int):
                options["dealer"] = (dealer - seat.index + 1) % old.players
            return start_game(user, old.mode, options, time_control=old.time_control, rematch_of=old,
                              seats=old.players, invitees=invitees, creator_looking=creator_looking,
                              public=old.public)
        if old.players == 2:
            other = old.seats.exclude(user=user).first()
            if other is not None and other.user is not None and other.user.is_active:
                kwargs["opponent"] = other.user
            else:
                kwargs["open_challenge"] = True
            kwargs["creator_seat"] = 1 - seat.index
        return start_game(user, old.mode, options, time_control=old.time_control, rematch_of=old,
                          creator_looking=creator_looking, public=old.public, **kwargs)




def _named(game: Game, reason: str) -> str:
    """The engine's reason with its seat numbers ("Seat 0 forfeited the game. Seat 1 wins.")
    turned into the players' names, as the page and the mail show it."""
    seats = _loaded_seats(game)
    if seats is None:
        seats = game.seats.select_related("user")
    names = {seat.index: seat.player_name for seat in seats}
    return for_reader(reason, None, names)


def _finish(game: Game, status: str, reason: str, now) -> None:
    game.status = status
    game.finished_at = now
    game.deadline = None
    game.end_reason = _named(game, reason)[:200]
    # An invitation still open dies with the game.  With the seats loaded (a move), only a
    # seat that holds one is written: a game of joined seats (nearly every one) writes none.
    loaded = _loaded_seats(game)
    if loaded is None or any(s.status != Seat.Status.JOINED and s.invite_token for s in loaded):
        game.seats.exclude(status=Seat.Status.JOINED).update(invite_token=None)


def _announce_finished(game: Game) -> None:
    """Once the finished game is saved: its consequences read the row as it now is.  The
    receivers in the transaction (the journal's entries, the ratings) are given the game
    itself, as this transaction left it, so as not to load it again."""
    facts = {"game_id": game.pk, "status": str(game.status), "version": game.version}
    signals.game_finished_before_commit.send(sender=Game, game=game, **facts)
    _send_on_commit(signals.game_finished, **facts)


def abandon_game(game_id: int, reason: str) -> Game:
    with transaction.atomic():
        game = _locked(game_id)
        if game.status != Game.Status.ACTIVE:
            raise GameNotRunning("This game is not in play.")
        _finish(game, Game.Status.ABANDONED, reason, timezone.now())
        game.save(update_fields=["status", "finished_at", "deadline", "end_reason", "updated_at"])
        _announce_finished(game)
        return game


# The house's computer players that take over the seats of players who left a game of
# three or more.  One user per seat number, so two seats taken over in one game are two
# players (a user has one seat per game); all play at the quick level.
HOUSE_NAMES = ("Hermes", "Iris", "Janus", "Hecate", "Selene", "Nyx")
HOUSE_LEVEL = "greedy"


def is_house(user) -> bool:
    return user.username.startswith("house-")


def house_player(index: int):
    name = HOUSE_NAMES[index % len(HOUSE_NAMES)]
    user, created = get_user_model().objects.get_or_create(
        username=f"house-{index}",
        defaults={"display_name": f"{name} (the house)", "computer_level": HOUSE_LEVEL, "email": "",
                  "turn_mail": "never"},
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def takes_over(game: Game) -> bool:
    """Whether a seat that leaves (resigns, runs out of time, deletes its account) is played
    on by the house: in a game of three or more, the others play on."""
    return game.players >= 3


def take_over_seats(game_id: int, indexes: list[int], reason: str) -> Game:
    """The house's computer players take these seats of a running game of three or more
    and the game goes on; once no person is left at the table, it is abandoned."""
    with transaction.atomic():
        game = _locked(game_id)
        if game.status != Game.Status.ACTIVE:
            raise GameNotRunning("This game is not in play.")
        seats = list(game.seats.select_related("user").filter(index__in=indexes, status=Seat.Status.JOINED))
        for seat in seats:
            if seat.user is not None and seat.user.is_computer:
                continue
            # The log says who left (GameEvent.said_for), and the player keeps the game to
            # look at, read-only (left_game_for).
            GameEvent.objects.create(game=game, kind=GameEvent.Kind.TAKEN_OVER, seat=seat.index,
                                     version=game.version, user=seat.user)
            seat.user = house_player(seat.index)
            seat.save(update_fields=["user"])
        if not game.seats.filter(status=Seat.Status.JOINED, user__computer_level="").exists():
            _finish(game, Game.Status.ABANDONED, reason, timezone.now())
            game.save(update_fields=["status", "finished_at", "deadline", "end_reason", "updated_at"])
            _announce_finished(game)
            return game
        game.deadline = next_deadline(game, timezone.now())
        game.save(update_fields=["deadline", "updated_at"])
        _announce(signals.seat_taken_over, game_id=game.pk, version=game.version, to_act=list(game.to_act))
        return game


def left_game_for(game: Game, user) -> bool:
    """Whether ``user`` once had a seat of ``game`` that the house took over: they may
    still look at it, as a spectator would (no hand, no moves)."""
    return bool(getattr(user, "is_authenticated", False)) and GameEvent.objects.filter(
        game=game, kind=GameEvent.Kind.TAKEN_OVER, user=user).exists()


def games_left_by(user):
    """The games whose seat ``user`` left to the house, newest first."""
    return (Game.objects.filter(events__kind=GameEvent.Kind.TAKEN_OVER, events__user=user).distinct()
            .select_related("paused_clock", "created_by").prefetch_related("seats__user")
            .defer("state").order_by("-updated_at"))


def taken_over_lines(game: Game, reader_user_id: int | None, since_version: int = 0) -> list[dict]:
    """The seats the house took over, as lines for a person (``GameEvent.said_for``), each
    with the version it followed: the page's log, the history and the turn mail ask here."""
    events = game.events.filter(kind=GameEvent.Kind.TAKEN_OVER, version__gte=since_version).select_related("user")
    return [{"who": who, "text": text, "version": event.version, "at": event.created_at,
             "mine": event.user_id is not None and event.user_id == reader_user_id}
            for event in events for who, text in [event.said_for(reader_user_id)]]


def resign(game_id: int, user) -> Game:
    """Give up: a forfeit where the game has one (Warring Planets); in a game of three or
    more the house plays the seat on; else the game is abandoned."""
    game = Game.objects.get(pk=game_id)
    seat = seat_of(game, user)
    if game.status != Game.Status.ACTIVE:
        raise GameNotRunning("This game is not in play.")
    if takes_over(game):
        return take_over_seats(game.pk, [seat.index], f"{seat.player_name} left the game.")
    forfeit = {"type": "forfeit"}
    if forfeit in game.rules.legal_moves(game.load_state(), seat.index):
        submit_move(game.pk, seat, forfeit, game.version)
        return Game.objects.get(pk=game.pk)
    return abandon_game(game.pk, f"{seat.player_name} left the game.")


# --- playing ---------------------------------------------------------------------------


def still_current(game: Game, seat_index: int, version: int) -> bool:
    """Whether a board built for ``seat_index`` at ``version`` still fits the game now.

    It does at the game's own version.  An older one still fits only where several seats
    were asked to act at once: every move since was another seat's, and this seat's legal
    moves are exactly those it was shown (so a mail's move numbers mean the same moves).
    Such seats decide independently, so whoever answers second must not be refused for
    the first one's move.  A seat's own move since (a doubled submit, a turn played)
    always makes its old board stale.
    """
    if version == game.version:
        return True
    if not isinstance(version, int) or not 0 <= version < game.version:
        return False
    if Move.objects.filter(game=game, number__gt=version, seat=seat_index).exists():
        return False
    rules = game.rules
    now = rules.legal_moves(rules.loads(game.state), seat_index)
    if not now:
        return False
    # The replay is paid only on this rare path: a seat answering from a board older than
    # other seats' moves.
    earlier = list(Move.objects.filter(game=game, number__lte=version).values_list("seat", "move"))
    then = rules.replay(game.seed, game.players, game.options, earlier)
    return rules.legal_moves(then, seat_index) == now


def submit_move(game_id: int, actor, move: dict, expected_version: int, *, confirmed: bool = True,
                newest_moves: int = 0) -> Move:
    """Play ``move``; the returned record's ``game`` is the game as it now is, loaded once
    under the lock with its seats and users (``game_with_seats``), so a page can be drawn from
    it without loading it again.  With ``confirmed=False`` a seat that asks before moves
    drawing hidden cards gets ``NeedsConfirmation`` for such a move, and nothing is played.
    With ``newest_moves``, the game's ``newest_moves`` holds that many of its newest moves
    as (number, seat, description, created_at), this one first: the log's window of the
    answer, read by the statement that writes the move (``update_then_insert``)."""
    with transaction.atomic():
        game = _locked(game_id, seats=True)
        seat = seat_of(game, actor)
        if game.status != Game.Status.ACTIVE:
            if game.is_over:
                raise GameNotRunning("This game is over; no more moves can be made.")
            raise GameNotRunning("This game has not started yet.")
        if not still_current(game, seat.index, expected_version):
            raise StaleMove(
                "The game moved on since this board was shown (a move was already made), "
                "so nothing was played. Here is the board as it is now."
            )
        # The version the move follows: the game's own, also when an older board still fits.
        before = game.version
        rules = game.rules
        state = rules.loads(game.state)
        if not confirmed and seat.wants_confirmation and _draws_hidden(rules, state, seat.index, move):
            raise NeedsConfirmation(rules.describe_move(state, seat.index, move), game, seat)
        new = rules.apply(state, seat.index, move)  # IllegalMove: nothing written yet
        description = rules.describe_move(state, seat.index, move)
        to_act_before = list(game.to_act)
        to_act = rules.to_act(new)
        outcome = rules.outcome(new)
        now = timezone.now()

        game.state = rules.dumps(new)
        game.version = before + 1
        game.to_act = to_act
        game.outcome = outcome
        fields = ["state", "version", "to_act", "outcome", "updated_at"]
        if outcome is not None:
            _finish(game, Game.Status.FINISHED, outcome.get("reason", ""), now)
            fields += ["status", "finished_at", "deadline", "end_reason"]
        else:
            game.deadline = next_deadline(game, now)
            fields.append("deadline")
        # The version condition makes a doubled submission fail even where the database
        # has no row locks (SQLite ignores select_for_update).
        game.updated_at = now
        # Both writes through SQL made once (sefirot_site.prepared): every move runs them;
        # on PostgreSQL in one statement, the record written only if the game was.
        log_record = ("number", "seat", "description", "created_at")
        record = update_then_insert(Game, {"id": game.pk, "version": before}, {f: getattr(game, f) for f in fields},
                                    Move(game=game, number=game.version, seat=seat.index, move=move,
                                         description=description[:300]),
                                    read_back=("game", "number", log_record, newest_moves - 1) if newest_moves else None)
        if record is None:
            raise StaleMove("The game moved on while this move was sent, so nothing was played.")
        if newest_moves:
            game.newest_moves = [tuple(getattr(record, name) for name in log_record)] + record.read_back
        # Whether a computer is to act now, from the seats loaded above: its receiver
        # need not ask the database again.
        computer_to_act = any(s.index in to_act and s.status == Seat.Status.JOINED and s.user is not None
                              and s.user.is_computer for s in game.seats.all())
        _announce(signals.move_applied, game_id=game.pk, version=game.version,
                  seat=seat.index, to_act=list(to_act), computer_to_act=computer_to_act,
                  clocked=game.time_control is not None, game=game)
        if outcome is not None:
            _announce_finished(game)
        if outcome is None and sorted(to_act) != sorted(to_act_before):
            _announce(signals.turn_changed, game_id=game.pk, version=game.version, to_act=list(to_act))
        return record


def _draws_hidden(rules, state: dict, seat_index: int, move: dict) -> bool:
    try:
        return rules.move_facts(state, seat_index, move)["draws_hidden"]
    except (IllegalMove, ValueError, KeyError, TypeError):
        return False  # apply gives the real answer
