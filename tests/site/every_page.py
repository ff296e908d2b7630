"""Every page of the site, found from the URLconf, and how to visit each with real data.

``test_accessibility.py`` runs axe-core on each of them.  The list is not written by hand:
``patterns()`` walks Django's resolver, and each pattern's arguments are filled from the
cast's data by the argument's name (``SAMPLES``: every game of every mode, in progress and
finished, for ``game_id``; the journal entry with a seal for ``pk``; ...), or, where the
name alone does not say which object it is, by the pattern's name (``BY_NAME``); a pattern
without arguments is visited logged in (as Alice) and logged out.  So a
page added later is visited by itself when its arguments are ones named here; when they
are not, the test fails naming the page and saying where to add its visit data.

What a visit answers decides what it is: a 200 HTML document is a page (axe checks it);
405 to a GET is an action (a form posts there); any other content type is a file (JSON,
PDF, SVG, iCalendar).  What has no way to be visited as a page, or is not ours to check,
is in ``NOT_PAGES`` with the reason.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from django.urls import URLPattern, URLResolver, get_resolver, reverse

HOW_TO_ADD = (
    "Add how to visit it to tests/site/every_page.py: a sample for its argument in SAMPLES "
    "(by the argument's name), or the visits of its pattern in BY_NAME (by the pattern's name), "
    "made from the objects Cast builds; or, if it is no page, list it in NOT_PAGES with why."
)

# Patterns that are no page to check, by name (or namespace followed by ":"), and why.
NOT_PAGES = {
    "admin:": "Django's own admin, for staff only; its markup is Django's, not ours",
    "healthz": "JSON for load balancers",
    "games:version": "a fragment the game page polls (its regions), not a page",
    "wizards:session_version": "a fragment the session page polls (its regions), not a page",
    "journal:seal_file": "a seal's file (PNG, PDF or SVG) to download",
    "journal:shared_seal_file": "a shared seal's file (PNG, PDF or SVG) to download",
    "push:mute": "a fragment the game page loads into its push switch (install.js), not a page",
    "games:waiting": "the navigation badge's count, polled by every page (204 or 286), not a page",
    "push:forget": "a POST from the profile's list of devices (forgets one); no page of its own",
    "clocks:calendar": "an iCalendar feed (text/calendar) for calendar apps, not a page",
    "account_confirm_login_code": "login by a mailed code is off: allauth answers 404",
    "account_request_reauthentication_code": "reauthentication by a mailed code is off: allauth answers 404",
    "account_confirm_reauthentication_code": "reauthentication by a mailed code is off: allauth answers 404",
}


@dataclass(frozen=True)
class Pattern:
    route: str
    name: str  # "namespace:name"
    arguments: tuple[str, ...]


def patterns() -> list[Pattern]:
    """Every URL pattern of the site, with its full name and the names of its arguments."""
    found: list[Pattern] = []

    def walk(entries, prefix: str, namespace: str | None, arguments: tuple[str, ...]):
        for entry in entries:
            inner_arguments = arguments + tuple(entry.pattern.regex.groupindex)
            if isinstance(entry, URLResolver):
                inner = ":".join(n for n in (namespace, entry.namespace) if n) or None
                walk(entry.url_patterns, prefix + str(entry.pattern), inner, inner_arguments)
            elif isinstance(entry, URLPattern):
                name = ":".join(n for n in (namespace, entry.name) if n)
                found.append(Pattern(prefix + str(entry.pattern), name, inner_arguments))

    walk(get_resolver().url_patterns, "", None, ())
    return found


def why_not_a_page(pattern: Pattern) -> str | None:
    for key, why in NOT_PAGES.items():
        if pattern.name == key or (key.endswith(":") and (pattern.name + ":").startswith(key)):
            return why
    return None


@dataclass(frozen=True)
class Visit:
    label: str  # what is visited, for messages: "games:game (warring_planets, finished)"
    path: str
    visitor: str | None  # a user name of the cast, or None: not logged in
    pattern: str = ""  # the pattern's name (or route) the visit covers
    status: int = 200  # what the page answers: the site's 404 page is a page too


@dataclass
class Cast:
    """Alice, Bob, Carol and an outsider, with something of everything: a game of each
    registered mode in progress and finished (against Bob where it takes two), an
    invitation waiting for Bob, Alice following Bob and his open challenge, Carol's private
    player page, a computer player's, a tarot wizards table with a session, a journal entry
    with a rendered seal and a share link, a turn mail in the development mailbox, an
    address waiting to be confirmed and a password reset link."""

    users: dict = field(default_factory=dict)
    games: list = field(default_factory=list)  # (description, game)
    objects: dict = field(default_factory=dict)


def build_cast(make_user, settings, mail_folder) -> Cast:
    """``settings``: pytest-django's fixture (the mail goes to files in ``mail_folder`` for
    the test only)."""
    from allauth.account.forms import default_token_generator
    from allauth.account.models import EmailAddress, EmailConfirmationHMAC
    from allauth.account.utils import user_pk_to_url_str
    from games import services
    from games.engine import RULES
    from games.mail.outgoing import turn_mail
    from games.mail.views import sent_mail
    from games.models import Game
    from games.wizards import services as wizards
    from games.wizards import tasks as wizard_tasks
    from journal import services as journal
    from journal.models import Seal
    from journal.tasks import render_seal_task
    from tests.games.wizards_helpers import make_table

    cast = Cast()
    alice = make_user("alice", display_name="Alice", time_zone="Europe/Paris")
    bob = make_user("bob", display_name="Bob")
    carol = make_user("carol", display_name="Carol")
    outsider = make_user("outsider", display_name="Olive Outsider")
    # The development mailbox opens for staff when DEBUG is off, as in the tests.
    keeper = make_user("keeper", display_name="Kim Keeper", is_staff=True)
    newcomer = make_user("newcomer", display_name="Nell Newcomer", verified=False)
    cast.users = {u.username: u for u in (alice, bob, carol, outsider, keeper, newcomer)}

    # The solver's jobs of the finished solo games: small budgets (settled in a moment).
    settings.SOLVER_MAX_NODES, settings.SOLVER_MAX_SECONDS = 20_000, 20
    for mode in sorted(RULES):
        rules = RULES[mode]
        for stage in ("in progress", "finished"):
            if rules.min_players == 1:
                game = services.start_game(alice, mode, {}, seed=7)
            else:
                game = services.start_game(alice, mode, {}, opponent=bob, seed=7)
                services.accept_invitation(game.pk, bob)
            game = _play(game, until_over=stage == "finished")
            cast.games.append((f"{mode}, {stage}", game))
    # A private game: nothing to whoever holds no seat (the public ones above they may watch).
    private = services.start_game(alice, "warring_planets", {}, opponent=bob, seed=7, public=False)
    services.accept_invitation(private.pk, bob)
    cast.objects["private_game"] = private
    # A game of computer players alone, which Alice made and watches without a seat.
    from games.computer import computer_players
    watched = services.start_game(alice, "warring_planets", {}, seats=2, invitees=computer_players(["greedy"] * 2),
                                  creator_plays=False, seed=7)
    # Its moves are the computer players' own: a worker of this test process (started for an
    # earlier test) may be playing them meanwhile, so the cast plays none for them.
    cast.games.append(("warring_planets, computer players alone, watched", watched))
    _solver_jobs(cast)
    cast.objects["invitation"] = services.start_game(alice, "warring_planets", {}, invite_email="bob@example.com")
    cast.objects["invite_token"] = cast.objects["invitation"].seats.get(index=1).invite_token

    table = make_table(alice, bob, carol)
    ended = wizards.start_session(table, alice, title="The toll bridge")
    wizards.act(ended.pk, alice, {"type": "end_session", "narration": "Dawn."}, ended.version)
    wizard_tasks.make_journal_entries(ended.pk)
    session = wizards.start_session(table, alice, title="The ferry")
    wizards.act(session.pk, alice, {"type": "challenge", "source": "hand", "index": 2}, session.version)
    session.refresh_from_db()
    waiting = wizards.create_table(alice, name="Night Market")
    cast.objects.update(table=table, session=session, character=table.characters.get(owner=bob),
                        wizard_invitation=wizards.invite(waiting, alice, "outsider"))

    entry = journal.record_drawn(alice, spread="three", reversals=True, title="Morning draw", tags=["morning"])
    journal.update_entry(entry, title=entry.title, date=entry.date, reflections="A *quiet* morning.",
                         reflections_format="markdown", tags=["morning"])
    cards, words = journal.default_seal_input(entry)
    seal = journal.request_seal(entry, cards, words)
    render_seal_task.apply(args=(seal.pk,))
    assert Seal.objects.get(pk=seal.pk).status == Seal.Status.DONE
    journal.share(entry)
    entry.refresh_from_db()
    cast.objects.update(entry=entry, seal=seal)

    # The players' pages (games.players): Alice follows Bob, who has an open challenge (My
    # games lists it); Carol keeps her page private; a computer player has a page too.
    from games.computer import computer_player
    from games.players.services import follow

    follow(alice, bob)
    services.start_game(bob, "warring_planets", {}, open_challenge=True, seed=8)
    carol.profile_private = True
    carol.save(update_fields=["profile_private"])
    cast.objects["computer"] = computer_player("greedy")

    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(mail_folder)
    playing = next(g for d, g in cast.games if d == "warring_planets, in progress")
    turn_mail(playing.seats.get(index=playing.to_act[0])).send()
    cast.objects["mail_key"] = sent_mail()[0].key

    address = EmailAddress.objects.get(user=newcomer)
    cast.objects["confirm_key"] = EmailConfirmationHMAC(address).key
    cast.objects["reset"] = {"uidb36": user_pk_to_url_str(bob), "key": default_token_generator.make_token(bob)}
    # Every game's "finished" stage did finish (the daily deal's and the solver's cast add others).
    finished = [game.pk for description, game in cast.games if description.endswith(", finished")]
    assert Game.objects.filter(pk__in=finished, status=Game.Status.FINISHED).count() == len(RULES) == len(finished)
    cast.objects["daily"] = _daily_deal_finished(alice, bob)
    return cast


def _daily_deal_finished(*players):
    """Today's Know Thyself deal played to its end by each of ``players``, every reading
    shown with its seal drawn: the results page at its fullest (games.daily)."""
    from games.daily import services as daily

    for player in players:
        game = _play(daily.start(player, "know_thyself"), until_over=True)
        daily.set_shared(player, game.daily_play.deal, True)
        daily.draw_shared_seal(game.daily_play.pk)
    return game.daily_play.deal


def _play(game, *, until_over: bool, moves: int = 9, cap: int = 3000):
    """Seeded random moves: a few (stopping before the game would end), or to its end."""
    from games import services
    from games.models import Game

    choose = random.Random(game.pk)
    for count in range(cap):
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.Status.ACTIVE or (not until_over and count >= moves):
            break
        rules = game.rules
        state = rules.loads(game.state)
        seat = choose.choice(game.to_act)
        legal = [m for m in rules.legal_moves(state, seat) if m["type"] not in ("forfeit", "resign")]
        if not until_over:
            legal = [m for m in legal if rules.outcome(rules.apply(state, seat, m)) is None] or legal
        services.submit_move(game.pk, game.seats.get(index=seat), choose.choice(legal), game.version)
    return Game.objects.get(pk=game.pk)


def _solver_jobs(cast: Cast) -> None:
    """The solution page in each of its states: a won deal (its walk), one searching, one
    proved lost, one not settled, one waiting."""
    from games.solutions.models import SolverJob
    from games.solutions.services import run_job

    finished = {d.split(",")[0]: g for d, g in cast.games if d.endswith("finished")}
    run_job(finished["dream_odyssey"].pk)  # winnable within the small budget (seed 7)
    states = {"hermits_arcana": {"status": SolverJob.Status.RUNNING, "nodes": 4000, "seconds": 0.4},
              "know_thyself_2021": {"status": SolverJob.Status.LOST, "nodes": 9000, "seconds": 3.0},
              "lovers_discourse": {"status": SolverJob.Status.UNDECIDED, "nodes": 20000, "seconds": 30.0}}
    for mode, fields in states.items():
        SolverJob.objects.filter(game=finished[mode]).update(**fields)
    cast.objects["solutions"] = {mode: game for mode, game in finished.items()
                                 if SolverJob.objects.filter(game=game).exists()}


def _rules_slugs():
    from games.engine import RULES

    return sorted(RULES)


# Samples by argument name: for each, the visits as (description, value, visitor).
SAMPLES = {
    "game_id": lambda cast: [(description, game.pk, "alice") for description, game in cast.games],
    "table_id": lambda cast: [("a table Alice runs", cast.objects["table"].pk, "alice")],
    "session_id": lambda cast: [("a session in play, as its GM", cast.objects["session"].pk, "alice"),
                                ("a session in play, as a player", cast.objects["session"].pk, "bob")],
    "character_id": lambda cast: [("Bob's wizard", cast.objects["character"].pk, "bob")],
    "pk": lambda cast: [("an entry with a seal", cast.objects["entry"].pk, "alice")]
                       + [(f"the entry of {d}", e.pk, "alice") for d, e in _game_entries(cast)],
    "slug": lambda cast: [(slug, slug, None) for slug in _rules_slugs()],
}


def _game_entries(cast: Cast):
    from journal.models import Entry

    for description, game in cast.games:
        entry = Entry.objects.filter(owner=cast.users["alice"], source_game=game).first()
        if entry is not None:
            yield description, entry
    wizards_entry = Entry.objects.filter(owner=cast.users["bob"], mode="tarot_wizards").first()
    if wizards_entry is not None:
        yield "tarot wizards", wizards_entry


def _unsubscribe_token(cast: Cast) -> str:
    from games.mail import etiquette

    # The token is the address's last part: .../mail/unsubscribe/<token>/
    return etiquette.about_all(cast.users["alice"]).header.rstrip("/").rsplit("/", 1)[1]


def _daily(cast: Cast) -> dict:
    deal = cast.objects["daily"]
    return {"day": deal.day.isoformat(), "mode": deal.mode}


def _seal(cast: Cast) -> dict:
    return {"pk": cast.objects["entry"].pk, "seal_pk": cast.objects["seal"].pk}


# Visits by pattern name, where the arguments' names do not say which object they are:
# (description, the pattern's arguments, visitor).
BY_NAME = {
    "games:invitation": lambda cast: [
        ("Bob's invitation", {"token": cast.objects["invite_token"]}, "bob"),
        ("Bob's invitation, not logged in", {"token": cast.objects["invite_token"]}, None)],
    "wizards:invitation": lambda cast: [
        ("the outsider's invitation", {"token": cast.objects["wizard_invitation"].token}, "outsider")],
    # A history replays a game's record: one in progress and every finished game (the same
    # boards as in play, so every game's page need not be replayed twice) keep the time down.
    "games:history": lambda cast: [(d, {"game_id": g.pk}, "alice") for d, g in cast.games
                                   if d.endswith("finished") or g is cast.games[0][1]],
    # The solver's verdict on each finished game it searches, in every state (a won deal's
    # page shows its winning line's walk at its start).
    "games:solution": lambda cast: [(f"{mode}, its deal searched", {"game_id": g.pk}, "alice")
                                    for mode, g in cast.objects["solutions"].items()],
    "journal:shared": lambda cast: [("a shared entry", {"token": cast.objects["entry"].share_token}, None)],
    "journal:seal": lambda cast: [("a rendered seal", _seal(cast), "alice")],
    "journal:seal_retry": lambda cast: [("a rendered seal", _seal(cast), "alice")],
    "mail:mailbox_reply": lambda cast: [("a turn mail", {"key": cast.objects["mail_key"]}, "keeper")],
    "mail:mailbox": lambda cast: [("the development mailbox", {}, "keeper")],
    "mail:unsubscribe": lambda cast: [
        ("a turn mail's one-click unsubscribe, opened in a browser", {"token": _unsubscribe_token(cast)}, None)],
    "daily:results": lambda cast: [("today's Know Thyself deal, finished", _daily(cast), "alice")],
    "daily:share": lambda cast: [("today's Know Thyself deal, finished", _daily(cast), "alice")],
    "daily:play": lambda cast: [("today's Dream Odyssey deal", {"mode": "dream_odyssey"}, "alice")],
    "players:profile": lambda cast: [
        ("Alice's own page", {"username": "alice"}, "alice"),
        ("Bob's page, as Alice", {"username": "bob"}, "alice"),
        ("Bob's page, not logged in", {"username": "bob"}, None),
        ("Carol's private page, as the outsider", {"username": "carol"}, "outsider"),
        ("a computer player's page", {"username": cast.objects["computer"].username}, "alice")],
    "players:follow": lambda cast: [("following Bob (a POST)", {"username": "bob"}, "alice")],
    "players:unfollow": lambda cast: [("unfollowing Bob (a POST)", {"username": "bob"}, "alice")],
    "account_confirm_email": lambda cast: [("a newcomer's address", {"key": cast.objects["confirm_key"]}, None)],
    "account_reset_password_from_key": lambda cast: [("Bob's reset link", cast.objects["reset"], None)],
}


def unvisitable() -> list[str]:
    """The patterns nothing here says how to visit, each with its route, name and arguments."""
    return [f"/{p.route} ({p.name or 'no name'}, arguments {', '.join(p.arguments)})" for p in patterns()
            if not why_not_a_page(p) and p.name not in BY_NAME and p.arguments
            and not (len(p.arguments) == 1 and p.arguments[0] in SAMPLES)]


def visits(cast: Cast) -> list[Visit]:
    """Every visit to make (``unvisitable()`` must be empty first)."""
    planned: list[Visit] = []
    by_argument = {name: make(cast) for name, make in SAMPLES.items()}
    for pattern in patterns():
        if why_not_a_page(pattern):
            continue
        if pattern.name in BY_NAME:
            for description, kwargs, visitor in BY_NAME[pattern.name](cast):
                path = reverse(pattern.name, kwargs=kwargs)
                planned.append(Visit(f"{pattern.name} ({description})", path, visitor, pattern.name))
        elif not pattern.arguments:
            path = reverse(pattern.name) if pattern.name else "/" + pattern.route
            for visitor in ("alice", None):
                who = "logged in" if visitor else "logged out"
                planned.append(Visit(f"{pattern.name or path} ({who})", path, visitor, pattern.name or pattern.route))
        elif len(pattern.arguments) == 1 and pattern.arguments[0] in by_argument:
            for description, value, visitor in by_argument[pattern.arguments[0]]:
                path = reverse(pattern.name, kwargs={pattern.arguments[0]: value})
                planned.append(Visit(f"{pattern.name} ({description})", path, visitor, pattern.name))
    # A page one may not see: the site's 404 is a page too.
    planned.append(Visit("the 404 page (a private game the outsider has no seat in)",
                         reverse("games:game", args=[cast.objects["private_game"].pk]), "outsider", "", status=404))
    # A spectator's page (issue 41): a public game in play and a finished one's history, as
    # the outsider and as a visitor not logged in see them (the view of no seat).
    watched = next(g for d, g in cast.games if d == "tarot_hallow, in progress")
    ended = next(g for d, g in cast.games if d == "warring_planets, finished")
    for visitor, who in (("outsider", "the outsider"), (None, "not logged in")):
        planned.append(Visit(f"games:game (a spectator's page of a game in play, {who})",
                             reverse("games:game", args=[watched.pk]), visitor, "games:game"))
        planned.append(Visit(f"games:history (a spectator's history of a finished game, {who})",
                             reverse("games:history", args=[ended.pk]), visitor, "games:history"))
    return planned
