"""Everything that changes a tarot wizards table, as functions: the views, mail and tasks
call these.  A session's change locks its row (``select_for_update``), checks the version
the person saw, lets the engine apply the act (or refuse it, changing nothing), stores the
new state and version, and records in the outbox what must follow (an "asked to act"
mail, the journal entries of a finished session).

Access: ``table_for`` and ``session_for`` raise Http404 for anyone who is neither the
table's game master nor one of its players, so an outsider learns nothing, not even that
the table exists.
"""

from __future__ import annotations

import re

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.db import transaction
from django.http import Http404
from django.utils import timezone

from games.engine.base import IllegalMove
from games.engine.tarot_wizards import characters as ch
from games.engine.tarot_wizards import session as rules
from games.engine.tarot_wizards.words import for_reader
from sefirot_site.outbox import enqueue

from .models import Character, Member, PlaySession, SessionSeat, Table

User = get_user_model()
GM = rules.GM
MAX_PLAYERS = 8
# The tasks (``tasks``) by their Celery names: the tasks call these services, so naming
# them keeps the imports one way.
SEND_INVITATION = "wizards.send_invitation_mail"
SEND_ASK_MAIL = "wizards.send_ask_mail"
MAKE_JOURNAL_ENTRIES = "wizards.make_journal_entries"
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
NUL_REFUSED = "What you sent holds a NUL character, which has no place in a text: take it out and send again."


class Refused(Exception):
    """A request the table will not take; the message is for a person."""


class StaleAct(Refused):
    pass


def key_of(user) -> str:
    return f"u{user.pk}"


# --- access -------------------------------------------------------------------------------


def role_at(table: Table, user) -> str | None:
    """"gm", "player", "invited" or None for anyone else."""
    if not user.is_authenticated:
        return None
    if table.gm_id == user.pk:
        return "gm"
    member = next((m for m in table.members.all() if m.user_id == user.pk), None)
    if member is None or member.status == Member.Status.DECLINED:
        return None
    return "player" if member.status == Member.Status.JOINED else "invited"


def table_for(user, table_id, *, joined: bool = True) -> tuple[Table, str]:
    table = Table.objects.filter(pk=table_id).select_related("gm").prefetch_related("members__user").first()
    role = role_at(table, user) if table else None
    if role is None or (joined and role == "invited"):
        raise Http404("No such table.")
    return table, role


def session_for(user, session_id) -> tuple[PlaySession, str]:
    """The session and who the user is at it: "gm", their player key, or None for a player
    of the table who has no wizard in this session (they read what everyone may read)."""
    session = PlaySession.objects.filter(pk=session_id).select_related("table", "table__gm").first()
    if session is None:
        raise Http404("No such session.")
    table, role = table_for(user, session.table_id)
    key = GM if role == "gm" else key_of(user)
    if key != GM and key not in session.state["actors"]:
        key = None  # a player of the table without a wizard in this session: the public view
    return session, key


def character_for(user, character_id, *, edit: bool = False) -> Character:
    """A character sheet: its owner and the table's GM and players may read it; only the
    owner edits it."""
    character = Character.objects.filter(pk=character_id).select_related("table", "owner").first()
    if character is None:
        raise Http404("No such character.")
    table_for(user, character.table_id)
    if edit and character.owner_id != user.pk:
        raise Http404("No such character.")
    return character


def names_at(table: Table, session: PlaySession | None = None) -> dict[str, str]:
    """Keys to people's names: the GM, the players, and the enemies the state knows."""
    names = {GM: str(table.gm)}
    if session is not None:
        names.update({k: a["name"] for k, a in session.state["actors"].items() if a["kind"] == "enemy"})
    for member in table.members.all():
        if member.user_id:
            names[key_of(member.user)] = str(member.user)
    return names


def words_for(text: str, reader: str | None, names: dict[str, str]) -> str:
    return for_reader(text, reader, names)


# --- tables and members -------------------------------------------------------------------


@transaction.atomic
def create_table(gm, *, name: str, campaign: str = "", slow: bool = False) -> Table:
    name = name.strip()[:120]
    if not name:
        raise Refused("Give the table a name.")
    return Table.objects.create(gm=gm, name=name, campaign=campaign.strip()[:200], slow=slow)


def _find_user(who: str):
    if EMAIL.match(who):
        address = EmailAddress.objects.filter(email__iexact=who, verified=True, user__is_active=True).first()
        return address.user if address else None
    # By user name only: a display name is anyone's to choose, so "zed" could be Mallory's.
    return User.objects.filter(username__iexact=who, is_active=True).first()


@transaction.atomic
def invite(table: Table, by, who: str) -> Member:
    """Invite a player by their user name or by an address (an account or not)."""
    table = Table.objects.select_for_update().get(pk=table.pk)
    if by.pk != table.gm_id:
        raise Refused("Only the game master invites players.")
    who = (who or "").strip()
    if not who:
        raise Refused("Write a player's name or mail address.")
    user = _find_user(who)
    if user is None and not EMAIL.match(who):
        raise Refused(f"No player here has the user name \u201c{who}\u201d. Invite them by mail address instead.")
    if user is not None and user.pk == table.gm_id:
        raise Refused("You run this table; you cannot be one of its players too.")
    if table.members.exclude(status=Member.Status.DECLINED).count() >= MAX_PLAYERS:
        raise Refused(f"A table seats at most {MAX_PLAYERS} players.")
    existing = (table.members.filter(user=user).first() if user else
                table.members.filter(email__iexact=who, user__isnull=True).first())
    if existing is not None and existing.status != Member.Status.DECLINED:
        raise Refused(f"{existing.name} is already invited.")
    if existing is not None:
        existing.status = Member.Status.INVITED
        existing.save(update_fields=["status"])
        member = existing
    else:
        member = Member.objects.create(table=table, user=user, email="" if user else who.lower())
    enqueue(SEND_INVITATION, member.pk)
    return member


def invitation_for(user, token: str) -> Member:
    member = Member.objects.filter(token=token).select_related("table", "table__gm", "user").first()
    if member is None or (member.user_id and member.user_id != user.pk) or member.status == Member.Status.DECLINED:
        raise Http404("This invitation does not work (any more).")
    return member


@transaction.atomic
def answer_invitation(member: Member, user, *, accept: bool) -> Member:
    member = Member.objects.select_for_update().get(pk=member.pk)
    if member.user_id is None:
        if member.table.gm_id == user.pk or member.table.members.filter(user=user).exists():
            raise Refused("You already have a place at this table.")
        member.user = user
    elif member.user_id != user.pk:
        raise Http404("This invitation does not work (any more).")
    member.status = Member.Status.JOINED if accept else Member.Status.DECLINED
    member.save(update_fields=["user", "status"])
    return member


# --- characters ---------------------------------------------------------------------------


def creation_seed(table: Table, user) -> int:
    """The seed of a wizard's creation spread: the table's, so the server's draw can be
    shown again and doubted by nobody."""
    return table.seed + 1_000_003 * user.pk


@transaction.atomic
def save_character(table: Table, user, *, name: str, spread: list[dict] | None, drawn_seed: int | None,
                   notes: dict, skills: dict, practice_name: str, practice: dict, prime: str,
                   sheet_notes: str = "", extra_skills: list[str] | None = None) -> Character:
    """Create or update ``user``'s character at ``table``.  The spread is fixed once made:
    site-drawn (from ``drawn_seed``, so the server's draw is the one kept) or recorded."""
    if role_at(table, user) != "player":
        raise Refused("Only the table's players make characters at it.")
    name = (name or "").strip()[:80]
    if not name:
        raise Refused("Give your wizard a name.")
    try:
        practice, prime = ch.clean_practice(practice, prime)
        skills = ch.clean_skills(skills)
        character = Character.objects.select_for_update().filter(table=table, owner=user).first()
        if character is None or not character.spread:
            if drawn_seed is not None:
                laid, by_site = ch.draw_spread(drawn_seed), True
            else:
                laid, by_site = ch.recorded_spread(spread or []), False
        else:
            laid, by_site, drawn_seed = character.spread, character.spread_drawn_by_site, character.spread_seed
    except IllegalMove as error:
        raise Refused(str(error)) from None
    for row in laid:
        row["note"] = str(notes.get(row["position"], "") or "").strip()[:ch.MAX_NOTE]
    character = character or Character(table=table, owner=user)
    character.name, character.spread, character.spread_drawn_by_site = name, laid, by_site
    character.spread_seed = drawn_seed if by_site else None
    character.skills, character.practice_name, character.practice, character.prime = skills, practice_name[:80], practice, prime
    character.notes = (sheet_notes or "")[:ch.MAX_NOTE * 4]
    character.extra_skills = [s.strip()[:ch.MAX_SKILL] for s in (extra_skills or []) if s.strip()][:12]
    character.save()
    return character


def character_document(character: Character) -> dict:
    """The sheet as JSON: what the player wrote and the cards of the spread; no hands."""
    return {
        "format": "sefirot-tarot-wizard", "version": 1, "name": character.name, "player": str(character.owner),
        "table": character.table.name,
        "spread": [{"position": r["position"], "label": ch.position_label(r["position"]),
                    "meaning": ch.position_meaning(r["position"]), "card": r["card"],
                    "reversed": r.get("reversed", False), "note": r.get("note", "")} for r in character.spread],
        "spread_drawn_by_site": character.spread_drawn_by_site,
        "skills": character.skills, "extra_skills": character.extra_skills,
        "practice": {"name": character.practice_name, "aspects": character.practice, "prime": character.prime},
        "wounds": character.wounds, "scars": character.scars, "dead": character.dead, "notes": character.notes,
    }


# --- sessions -----------------------------------------------------------------------------


@transaction.atomic
def start_session(table: Table, by, *, title: str = "") -> PlaySession:
    table = Table.objects.select_for_update().get(pk=table.pk)
    if by.pk != table.gm_id:
        raise Refused("Only the game master starts a session.")
    if "\x00" in title:  # the title comes from the page as typed (PostgreSQL keeps no NUL)
        raise Refused(NUL_REFUSED)
    if table.sessions.filter(status=PlaySession.Status.LIVE).exists():
        raise Refused("A session is already in play at this table; close it first.")
    joined = {m.user_id for m in table.members.filter(status=Member.Status.JOINED)}
    characters = [c for c in table.characters.select_related("owner").order_by("owner_id")
                  if c.owner_id in joined and not c.dead]
    if not characters:
        raise Refused("No player has a living character yet: a session needs at least one.")
    number = (table.sessions.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    players = {key_of(c.owner): rules.new_actor(
        name=c.name, prime=c.prime, practice=c.practice, skills=c.all_skills, wounds=c.wounds, scars=c.scars)
        for c in characters}
    state = rules.new_session(table.seed + number, players, gm_name=str(table.gm))
    session = PlaySession.objects.create(table=table, number=number, title=title.strip()[:120], state=state,
                                         start=state)
    SessionSeat.objects.create(session=session, user=table.gm, key=GM)
    for c in characters:
        SessionSeat.objects.create(session=session, user=c.owner, key=key_of(c.owner))
    Table.objects.filter(pk=table.pk).update(updated=timezone.now())
    return session


HAND_MOVES = {"cast", "divine", "meditate", "offer"}


@transaction.atomic
def act(session_id: int, user, move: dict, version: int | None, *, expect_card: str | None = None) -> PlaySession:
    """Do ``move`` as ``user`` at the session, or refuse it changing nothing.

    ``version`` is the one the page showed (None from mail, whose reply is checked by
    ``expect_card``: the card the mail numbered must still be the one at that number)."""
    # PostgreSQL keeps no NUL in text or JSON; a page or a mail may carry one all the same.
    if any(isinstance(value, str) and "\x00" in value for value in move.values()):
        raise Refused(NUL_REFUSED)
    session = PlaySession.objects.select_for_update().select_related("table").get(pk=session_id)
    key = GM if session.table.gm_id == user.pk else key_of(user)
    if key != GM and key not in session.state["actors"]:
        raise Http404("No such session.")
    if session.status != PlaySession.Status.LIVE:
        raise Refused("This session is over.")
    if version is not None and version != session.version and move.get("type") != "post":
        raise StaleAct("The table moved on since your page showed it; look again and act on what is there now.")
    if expect_card is not None:
        hand = rules.hand_of(session.state, key)
        index = move.get("index")
        if not isinstance(index, int) or not 1 <= index <= len(hand) or hand[index - 1] != expect_card:
            raise StaleAct("Your hand changed since that mail; here it is as it is now.")
    try:
        state = rules.apply(session.state, key, move)
    except IllegalMove as error:
        raise Refused(str(error)) from None
    session.state = state
    session.acts = session.acts + [[key, move]]
    session.version += 1
    fields = ["state", "acts", "version", "updated"]
    if state["over"]:
        session.status, session.ended = PlaySession.Status.OVER, timezone.now()
        fields += ["status", "ended"]
    session.save(update_fields=fields)
    _sync_characters(session)
    if move.get("type") == "ask":
        seat = session.seats.get(key=move["target"])
        enqueue(SEND_ASK_MAIL, seat.pk, session.version)
    if state["over"]:
        enqueue(MAKE_JOURNAL_ENTRIES, session.pk)
    return session


def _sync_characters(session: PlaySession) -> None:
    """Wounds and Scars live on past the session: the sheet follows the state."""
    for seat in session.seats.exclude(key=GM):
        actor = session.state["actors"].get(seat.key)
        if actor:
            Character.objects.filter(table_id=session.table_id, owner_id=seat.user_id).update(
                wounds=actor["wounds"], scars=actor["scars"], dead=actor["dead"])


def mark_seen(session: PlaySession, user) -> None:
    SessionSeat.objects.filter(session=session, user=user).update(seen_at=timezone.now())


# --- what a person sees -------------------------------------------------------------------


def log_lines(session: PlaySession, reader: str | None, names: dict[str, str]) -> list[dict]:
    """The log as ``reader`` may read it, worded for them, narration beside each act."""
    lines = []
    for entry in rules.log_for(session.state, reader):
        lines.append({"n": entry["n"], "by": words_for("{%s}" % entry["by"], reader, names),
                      "text": words_for(entry["text"], reader, names), "narration": entry.get("narration", ""),
                      "kind": entry["kind"], "private": "to" in entry, "mine": entry["by"] == reader,
                      "cards": entry.get("cards", [])})
    return lines
