"""The mail the site writes about games: turn mail, digests, reminders, days given, and
answers to replies.

A turn mail is built only from what the seat may know: ``view(state, seat)`` for the board
(drawn in text as the terminal player draws it, the game's ``Rules.text_drawing``, or for a
game without a drawing its view's fields in words) and ``legal_moves`` + ``describe_move``
for the numbered moves.  It never reads the stored
state for anything else, so it cannot show a card from another hand or a face-down pile.

Its Reply-To is ``play+<seat token>.<version>@MAIL_DOMAIN``: the seat's secret token says
who may move, the version says which position the numbers belong to, so a reply to an old
mail is recognised as stale instead of playing move 3 of a different position.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from email.utils import make_msgid, parseaddr
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db.models import Prefetch, prefetch_related_objects
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.timesince import timesince

from games import services
from games.engine import cards as card_data
from games.engine.words import for_reader, log_sentence, shared_result
from games.engine import get_rules
from games.mail.bounces import bounce_address
from games.mail.etiquette import Unsubscribe, about_all, about_seat
from games.mail.tables import NumberedMove
from games.models import Game, GameEvent, Seat

REPLY_LOCAL_PART = "play"
# The seat token is URL-safe base64 (letters, digits, - and _), the version a number.
REPLY_ADDRESS = re.compile(
    rf"^{REPLY_LOCAL_PART}\+(?P<token>[A-Za-z0-9_-]{{16,64}})\.(?P<version>\d{{1,9}})@(?P<domain>[^@\s]+)$"
)

# Keys of a view that are bookkeeping rather than board, or that the mail says in words.
HIDDEN_VIEW_KEYS = {"game", "title", "seed", "rng", "options", "players", "to_act", "seat", "you", "outcome",
                    "legal_moves", "layout"}
LEAD_VIEW_KEYS = {"prompt"}  # said above the board
LOG_VIEW_KEYS = {"log", "events"}  # the story so far: only its end goes in a mail
RECENT_EVENTS = 12


# --- the reply address -----------------------------------------------------------------


def reply_address(seat: Seat, version: int) -> str:
    return reply_address_of(seat.reply_token, version)


def reply_address_of(token: str, version: int) -> str:
    """The address a reply to a turn mail goes to, for a seat of any kind of table."""
    return f"{REPLY_LOCAL_PART}+{token}.{version}@{settings.MAIL_DOMAIN}"


def parse_reply_address(address: str) -> tuple[str, int] | None:
    """(token, version) from one of our reply addresses, or None for any other address."""
    match = REPLY_ADDRESS.match((address or "").strip().strip("<>"))
    if not match or match["domain"].lower() != settings.MAIL_DOMAIN:
        return None
    return match["token"], int(match["version"])


# --- the board in words ---------------------------------------------------------------


@dataclass
class Entry:
    """One line of a board summary; ``children`` for nested regions (Tree, Starfield, plane)."""

    label: str
    text: str = ""
    children: list["Entry"] = field(default_factory=list)


def card_label(code: str, game: str) -> str:
    card = card_data.CARDS[code]
    if card.arcana == "major":
        return f"{card_data.ROMAN[card.number]} {card_data.name(code, game)}"
    return card.name


def humanize(key: object) -> str:
    text = str(key).replace("_", " ").replace(":", " ").strip()
    return text[:1].upper() + text[1:] if text else text


def _scalar(value: object, game: str) -> str:
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return card_label(value, game) if card_data.is_card(value) else value.replace("_", " ")
    return str(value)


def _card_dict(value: dict, game: str) -> str | None:
    """A card with its orientation or flags, e.g. ``{"card": "M3", "reversed": true}``."""
    code = value.get("card")
    if not card_data.is_card(code):
        return None
    flags = [humanize(k).lower() for k, v in value.items() if k != "card" and v is True]
    extras = [f"{humanize(k).lower()} {_scalar(v, game)}" for k, v in value.items()
              if k != "card" and not isinstance(v, (bool, dict, list)) and v is not None]
    more = ", ".join(flags + extras)
    return card_label(code, game) + (f" ({more})" if more else "")


def _entry(label: str, value: object, game: str) -> Entry:
    if isinstance(value, dict):
        as_card = _card_dict(value, game)
        if as_card is not None:
            return Entry(label, as_card)
        if not value:
            return Entry(label, "empty")
        return Entry(label, "", [_entry(humanize(k), v, game) for k, v in value.items()])
    if isinstance(value, list):
        if not value:
            return Entry(label, "none")
        if all(not isinstance(v, (dict, list)) for v in value):
            return Entry(label, ", ".join(_scalar(v, game) for v in value))
        if all(isinstance(v, dict) and _card_dict(v, game) for v in value):
            return Entry(label, ", ".join(_card_dict(v, game) for v in value))
        return Entry(label, "", [_entry(str(i), v, game) for i, v in enumerate(value, 1)])
    return Entry(label, _scalar(value, game))


def _event(item: object, game: str, names: dict[int, str]) -> str:
    """One line of a view's log: a sentence already, or an event dict said in one line."""
    reader = next((index for index, name in names.items() if name == "you"), None)
    if not isinstance(item, dict):
        return for_reader(_scalar(item, game), reader, names)
    return for_reader(log_sentence(item, reader), reader, names)


def board_entries(view: dict, game: str, names: dict[int, str] | None = None) -> list[Entry]:
    """The seat's view as labelled lines, card codes turned into card names.

    Generic on purpose: it walks whatever ``view`` returns, so every engine's turn mail
    works the day it lands, and it can only ever show what that seat may see.  ``names``
    turns seat numbers in the log into "you" and player names.
    """
    names = names or {}
    entries = []
    for key, value in view.items():
        if key in HIDDEN_VIEW_KEYS or key in LEAD_VIEW_KEYS or value is None:
            continue
        if key in LOG_VIEW_KEYS and isinstance(value, list):
            recent = value[-RECENT_EVENTS:]
            if recent:
                label = "Lately" if len(recent) == len(value) else f"Lately (the last {len(recent)} events)"
                entries.append(Entry(label, "", [Entry("", _event(item, game, names)) for item in recent]))
            continue
        entries.append(_entry(humanize(key), value, game))
    return entries


def board_drawing(view: dict, game: str, names: dict[int, str]) -> str:
    """The board drawn in text from the seat's view, as the terminal player draws it, with
    players named instead of numbered; "" for a game that has no drawing.

    The prompt is left out (the mail says it above the board), and so is the log: the
    drawings of the Tree and the Starfield have none, and the mail tells the end of it.
    """
    draw = get_rules(game).text_drawing
    if draw is None:
        return ""
    lines = [line.rstrip() for line in draw(view)]
    prompt = view.get("prompt")
    if prompt and prompt in lines:
        at = lines.index(prompt)
        del lines[at - 1 if at and not lines[at - 1] else at:at + 1]
    text = "\n".join(lines).strip("\n")
    return for_reader(text, None, names)


def board_text(entries: list[Entry], depth: int = 0) -> str:
    lines = []
    pad = "  " * depth
    for entry in entries:
        if not entry.label:
            lines.append(f"{pad}- {entry.text}")
        elif entry.children and not entry.text:
            lines.append(f"{pad}{entry.label}:")
        else:
            lines.append(f"{pad}{entry.label}: {entry.text}".rstrip())
        if entry.children:
            lines.append(board_text(entry.children, depth + 1))
    return "\n".join(lines)


def numbered_moves(game: Game, state: dict, seat_index: int) -> list[NumberedMove]:
    """The seat's legal moves in the engine's order, numbered from 1 (the order a reply uses)."""
    rules = game.rules
    names = {s.index: s.player_name for s in game.seats.all()}
    # In the reader's words ("your", names): the same words a reply in words is read by.
    return [
        NumberedMove(n, for_reader(rules.describe_move(state, seat_index, move), seat_index, names), move)
        for n, move in enumerate(rules.legal_moves(state, seat_index), 1)
    ]


# --- composing -----------------------------------------------------------------------


def absolute(path: str) -> str:
    return settings.SITE_URL + path


def daily_results_link(game: Game) -> str:
    """The results page of the day's deal a daily game was played in ("" for any other
    game): its player, once it ended, may see how everyone else did."""
    from games.daily.services import results_path

    path = results_path(game)
    return absolute(path) if path else ""


def preferences_link() -> str:
    for name in ("profile", "accounts:profile"):
        try:
            return absolute(reverse(name))
        except NoReverseMatch:
            continue
    return settings.SITE_URL


def compose(template: str, context: dict, to: list[str], subject: str, *, reply_to: list[str] | None = None,
            headers: dict | None = None, auto: str = "auto-generated",
            unsubscribe: Unsubscribe | None = None) -> EmailMultiAlternatives:
    """A text + HTML mail from ``games/mail/<template>.txt`` and ``.html``.

    ``Auto-Submitted`` tells well-behaved auto-responders not to answer, which keeps the
    site and a holiday reply from mailing each other forever.  ``unsubscribe`` (a mail
    about the player's turns, to their account's address: ``games.mail.etiquette``) adds
    the one-click unsubscribe headers and footer links, and sends it from the player's
    own bounce address, so a bounce report names them (``games.mail.bounces``).
    """
    context = {**context, "SITE_URL": settings.SITE_URL, "preferences_link": preferences_link(),
               "unsubscribe": unsubscribe.links if unsubscribe else []}
    message = EmailMultiAlternatives(
        subject=subject,
        body=render_to_string(f"games/mail/{template}.txt", context),
        to=to,
        reply_to=reply_to or [],
        headers={"Auto-Submitted": auto, "Message-ID": make_msgid(domain=settings.MAIL_DOMAIN),
                 **(unsubscribe.headers if unsubscribe else {}), **(headers or {})},
    )
    if unsubscribe is not None:
        # The envelope sender (where reports go); the From header stays the site's.
        message.from_email = bounce_address(unsubscribe.user)
        message.extra_headers["From"] = settings.DEFAULT_FROM_EMAIL
    message.attach_alternative(render_to_string(f"games/mail/{template}.html", context), "text/html")
    return message


def local_time(moment, user):
    """``moment`` in the player's own time zone (UTC if theirs is unknown)."""
    if moment is None:
        return None
    try:
        zone = ZoneInfo(getattr(user, "time_zone", "") or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
    return moment.astimezone(zone)


def opponents(game: Game, seat: Seat) -> str:
    names = [s.player_name for s in game.seats.all() if s.pk != seat.pk]
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def _load_seats(game: Game) -> None:
    """The game's seats and their users in one query, kept on the game: the mail names
    every player several times (subject, opponents, moves, who else is to act)."""
    if "seats" not in getattr(game, "_prefetched_objects_cache", {}):
        prefetch_related_objects([game], Prefetch("seats", queryset=Seat.objects.select_related("user")))


def turn_context(seat: Seat) -> dict:
    """Everything a turn mail (or a digest entry) says about one seat's turn.

    The board and the story so far come from the seat's view only; the move log's
    descriptions are not used, since they are written from the mover's side.
    """
    game = seat.game
    _load_seats(game)
    state = game.load_state()
    view = game.rules.view(state, seat.index)
    names = {s.index: ("you" if s.pk == seat.pk else s.player_name) for s in game.seats.all()}
    drawing = board_drawing(view, game.mode, {s.index: s.player_name for s in game.seats.all()})
    # With a drawing, the fields in words add only the end of the story (what happened lately).
    board = board_entries({k: v for k, v in view.items() if k in LOG_VIEW_KEYS} if drawing else view,
                          game.mode, names)
    _tell_taken_over(game, seat, view, board)
    others = [s for s in game.seats.all() if s.index in game.to_act and s.pk != seat.pk]
    return {
        "game": game,
        "seat": seat,
        "opponents": opponents(game, seat),
        "prompt": for_reader(view["prompt"], seat.index, names) if isinstance(view.get("prompt"), str) else "",
        "drawing": drawing,
        "board": board,
        "board_text": board_text(board),
        "moves": numbered_moves(game, state, seat.index),
        "also_to_act": [s.player_name for s in others],
        "link": absolute(game.get_absolute_url()),
        "reply_address": reply_address(seat, game.version),
        "deadline": game.deadline,
        "deadline_local": local_time(game.deadline, seat.user),
    }


def _tell_taken_over(game: Game, seat: Seat, view: dict, board: list[Entry]) -> None:
    """A seat the house took over lately is news as well (a GameEvent, not in the engine's
    log): among the recent events, after the move it followed where the log's records
    carry their move ("n", the moves before them), else at the end."""
    if not services.takes_over(game):
        return  # only tables of three or more are played on by the house
    recent = (view.get("log") or [])[-RECENT_EVENTS:]
    numbers = [e.get("n") if isinstance(e, dict) and isinstance(e.get("n"), int) else None for e in recent]
    known = None not in numbers and bool(numbers)
    since = numbers[0] if known else max(game.version - RECENT_EVENTS, 0)
    left = services.taken_over_lines(game, seat.user_id, since_version=since)
    if not left:
        return
    lately = next((e for e in board if e.label.startswith("Lately")), None)
    if lately is None:
        lately = Entry("Lately")
        board.append(lately)
    if not known:
        lately.children += [Entry("", f"{line['who']} {line['text']}") for line in left]
        return
    for line in reversed(left):  # the later first, so each earlier one's place still holds
        at = sum(n < line["version"] for n in numbers)
        lately.children.insert(at, Entry("", f"{line['who']} {line['text']}"))


def turn_subject(game: Game, seat: Seat) -> str:
    against = opponents(game, seat)
    return f"Your move in {game.title}" + (f" with {against}" if against else "") + f" (game {game.pk})"


def turn_mail(seat: Seat, *, note: str = "", in_reply_to: str = "", subject: str = "") -> EmailMultiAlternatives:
    """The mail asking ``seat`` to act at the game's current version.

    With ``in_reply_to`` it answers a mail the player sent (``note`` saying what became of
    it), threaded under their subject.
    """
    context = turn_context(seat)
    context["note"] = note
    if in_reply_to or subject:
        return answer_mail(seat.user.email, subject or turn_subject(seat.game, seat), "turn", context,
                           in_reply_to=in_reply_to, reply_to=[context["reply_address"]])
    return compose("turn", context, [seat.user.email], turn_subject(seat.game, seat),
                   reply_to=[context["reply_address"]], unsubscribe=about_seat(seat))


def revealed_now(game: Game) -> bool:
    """Whether the move that made ``game``'s current version turned cards face up: the
    public view's log (what a spectator reads) has a "reveal" of that move (Tarot Hallow's
    cards played face down; log entries carry the number of moves before theirs)."""
    view = game.rules.view(game.load_state(), None)
    return any(isinstance(entry, dict) and entry.get("event") == "reveal" and entry.get("n") == game.version - 1
               for entry in view.get("log") or [])


def reveal_mail(seat: Seat) -> EmailMultiAlternatives:
    """The board after a reveal, to a seat that is not asked to act now (a tie replayed by
    others, a court's power being used): what happened, and no move to make."""
    context = turn_context(seat)
    context["moves"] = []
    game = seat.game
    return compose("reveal", context, [seat.user.email],
                   f"Cards revealed in {game.title}" + (f" with {context['opponents']}" if context["opponents"] else "")
                   + f" (game {game.pk})", unsubscribe=about_seat(seat))


def digest_mail(user, seats: list[Seat]) -> EmailMultiAlternatives:
    turns = [turn_context(seat) for seat in seats]
    count = len(turns)
    subject = f"{count} game{'s' if count != 1 else ''} waiting for your move"
    return compose("digest", {"user": user, "turns": turns}, [user.email], subject, unsubscribe=about_all(user))


def reminder_mail(seat: Seat) -> EmailMultiAlternatives:
    context = turn_context(seat)
    left = seat.game.deadline - timezone.now() if seat.game.deadline else None
    context["time_left"] = left
    context["time_left_words"] = timesince(timezone.now(), timezone.now() + left) if left else ""
    # Where the engine has a forfeit (Warring Planets), running out of time loses the game.
    context["forfeits"] = any(m.move == {"type": "forfeit"} for m in context["moves"])
    return compose("reminder", context, [seat.user.email],
                   f"Time is running out: {turn_subject(seat.game, seat)}",
                   reply_to=[context["reply_address"]], unsubscribe=about_seat(seat))


def game_over_mail(seat: Seat) -> EmailMultiAlternatives:
    game = seat.game
    won = bool(game.outcome) and seat.index in (game.outcome.get("winners") or [])
    # A cooperative game's partners won or lost as one ("you and Bob lost together").
    shared = shared_result(won, [s.player_name for s in game.seats.all() if s.index != seat.index]) \
        if game.rules.cooperative and (game.outcome or {}).get("result") in ("win", "loss") else ""
    context = {
        "game": game, "seat": seat, "opponents": opponents(game, seat), "won": won, "shared": shared,
        "reason": game.end_reason or (game.outcome or {}).get("reason", ""),
        "link": absolute(game.get_absolute_url()), "results_link": daily_results_link(game),
    }
    return compose("game_over", context, [seat.user.email], f"{game.title} (game {game.pk}) has ended",
                   unsubscribe=about_seat(seat))


def day_given_mail(seat: Seat, event: GameEvent) -> EmailMultiAlternatives:
    """A word to ``seat`` that the other player gave them a day more for this move."""
    game = seat.game
    giver = next((s.player_name for s in game.seats.all() if s.index == event.seat), "The other player")
    days = GameEvent.objects.filter(game=game, kind=event.kind, version=event.version, seat=event.seat).count()
    context = {
        "game": game, "seat": seat, "giver": giver, "days": days, "opponents": opponents(game, seat),
        "deadline_local": local_time(game.deadline, seat.user),
        "link": absolute(game.get_absolute_url()),
    }
    subject = f"{giver} gave you {'a day' if days == 1 else f'{days} days'} more in {game.title} (game {game.pk})"
    return compose("day_given", context, [seat.user.email], subject, unsubscribe=about_seat(seat))


def _threading(in_reply_to: str) -> dict:
    if not in_reply_to:
        return {}
    return {"In-Reply-To": in_reply_to, "References": in_reply_to}


def answer_mail(to: str, subject: str, template: str, context: dict, *, in_reply_to: str = "",
                reply_to: list[str] | None = None) -> EmailMultiAlternatives:
    """An answer to a mail someone sent us (a move by reply, or a refusal explaining why)."""
    subject = subject.strip() or "your mail"
    if not subject.lower().startswith("re:"):
        subject = f"Re: {subject}"
    return compose(template, context, [to], subject, reply_to=reply_to, headers=_threading(in_reply_to),
                   auto="auto-replied")


def from_address() -> str:
    """The site's own sender, for loop checks on inbound mail."""
    return parseaddr(settings.DEFAULT_FROM_EMAIL)[1].lower()
