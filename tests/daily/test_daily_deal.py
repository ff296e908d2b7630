"""The daily deal (issue 41, item 1): one deal a UTC day per solo game, the same cards for
everyone, played once per account without hints; its leaderboard, the readings its players
chose to show, and the solver's verdict only for those who finished it; streaks of days.
The cast: Alice and Bob play, Carol and the outsider have not."""

from __future__ import annotations

import datetime as dt
import hashlib
import re

import pytest
from django.db import IntegrityError, transaction
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.daily import services as daily
from games.daily.models import Deal, Play
from games.engine import cards as deck
from games.models import Game
from journal import readings
from journal.models import Entry
from sefirot_site.outbox.models import PendingTask

from ..games.conftest import play_random_moves

pytestmark = pytest.mark.django_db

TODAY_URL = reverse("daily:today")


def finish(game: Game) -> Game:
    for n in range(60):
        game = play_random_moves(game, 50, seed=n)
        if game.status != Game.Status.ACTIVE:
            return game
    raise AssertionError("the game did not end")


def played(client, mode="know_thyself") -> Game:
    answer = client.post(reverse("daily:play", args=[mode]))
    assert answer.status_code == 302, answer.content.decode()[:500]
    return Game.objects.get(pk=int(answer["Location"].rstrip("/").rsplit("/", 1)[1]))


def results_url(mode="know_thyself", day=None) -> str:
    return reverse("daily:results", args=[(day or daily.today()).isoformat(), mode])


def test_the_seed_and_variation_come_from_the_day_and_game_alone_by_the_documented_scheme():
    day = dt.date(2026, 11, 28)
    digest = hashlib.sha256(b"sefirot-daily:2026-11-28:know_thyself").digest()
    assert daily.seed_for(day, "know_thyself") == int.from_bytes(digest[:8], "big") >> 2 < 2 ** 62
    variants = ("standard", "meditative", "fated", "numerology")
    assert daily.variant_for(day, "know_thyself") == variants[int.from_bytes(digest[8:16], "big") % 4]
    assert daily.seed_for(day, "dream_odyssey") != daily.seed_for(day, "know_thyself")
    assert daily.seed_for(day + dt.timedelta(days=1), "know_thyself") != daily.seed_for(day, "know_thyself")


def test_a_days_deal_is_made_once_and_a_second_row_is_refused_by_the_database():
    first = daily.deal_for(daily.today(), "hermits_arcana")
    assert daily.deal_for(daily.today(), "hermits_arcana").pk == first.pk
    with pytest.raises(IntegrityError), transaction.atomic():
        Deal.objects.create(day=first.day, mode=first.mode, variant=first.variant, seed=first.seed)
    with pytest.raises(daily.DailyError):
        daily.deal_for(daily.today() + dt.timedelta(days=1), "hermits_arcana")  # not dealt yet


def test_two_accounts_play_the_same_deal_and_meet_on_one_leaderboard(alice, bob, alice_client, bob_client):
    page = alice_client.get(TODAY_URL).content.decode()
    for title in ("Know Thyself", "Dream Odyssey", "Hermit&#x27;s Arcana"):
        assert title in page
    deal = daily.deal_for(daily.today(), "know_thyself")
    assert f"Variation: <strong>{deal.variant.capitalize()}</strong>" in page

    alices, bobs = played(alice_client), played(bob_client)
    assert alices.pk != bobs.pk
    assert alices.state == bobs.state  # the same first state: the same cards, in the same places
    assert alices.seed == bobs.seed == deal.seed and alices.options == bobs.options
    assert alices.options["variant"] == [deal.variant]

    finish(alices)
    finish(bobs)
    board = alice_client.get(results_url())
    assert board.status_code == 200
    text = board.content.decode()
    assert "You</th>" in text and "Bob</th>" in text
    rows = {p.user_id: p for p in daily.leaderboard(deal)}
    assert set(rows) == {alice.pk, bob.pk}
    for play, game in ((rows[alice.pk], alices), (rows[bob.pk], bobs)):
        game.refresh_from_db()
        assert play.moves == game.version and play.won == (game.outcome["result"] == "win")
        assert play.score == game.outcome["scores"][0] and play.seconds is not None
    assert "Alice</th>" in bob_client.get(results_url()).content.decode()
    assert f'<a href="{results_url()}">The results of this daily deal: how the others did' in alice_client.get(
        reverse("games:game", args=[alices.pk])).content.decode()
    assert "Go on with your game" not in alice_client.get(TODAY_URL).content.decode()
    assert "Today's results for Know Thyself" in alice_client.get(TODAY_URL).content.decode()


def test_an_account_plays_a_deal_once(alice, alice_client):
    game = played(alice_client)
    again = alice_client.post(reverse("daily:play", args=["know_thyself"]))
    assert again.status_code == 409
    assert "You have already played today&#x27;s Know Thyself deal" in again.content.decode()
    finish(game)
    assert alice_client.post(reverse("daily:play", args=["know_thyself"])).status_code == 409
    assert Play.objects.filter(user=alice).count() == 1 and Game.objects.count() == 1
    with pytest.raises(IntegrityError), transaction.atomic():  # the database holds it too
        Play.objects.create(deal=Play.objects.get().deal, user=alice, game=Game.objects.create(
            mode="know_thyself", seed=1, players=1, state="{}"))


def test_no_daily_deal_of_a_game_for_two_and_logging_in_comes_first(alice_client, client):
    answer = alice_client.post(reverse("daily:play", args=["warring_planets"]))
    assert answer.status_code == 404 and "There is no daily deal of that game" in answer.content.decode()
    assert client.post(reverse("daily:play", args=["know_thyself"])).status_code == 302
    assert not Game.objects.exists()
    assert "Log in to play it" in client.get(TODAY_URL).content.decode()


def test_hints_are_refused_in_a_daily_game(alice, alice_client):
    game = played(alice_client)
    page = alice_client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert reverse("games:hint", args=[game.pk]) not in page
    refused = alice_client.post(reverse("games:hint", args=[game.pk]))
    assert refused.status_code == 400
    assert "There are no hints in the daily deal" in refused.content.decode()
    assert alice_client.post(reverse("games:hint", args=[game.pk]), HTTP_HX_REQUEST="true").status_code == 400


def test_nobody_watches_a_daily_game_while_it_is_played_or_after(alice, alice_client, outsider_client, client):
    game = played(alice_client)
    assert not Game.objects.get(pk=game.pk).public
    for url in (reverse("games:game", args=[game.pk]), reverse("games:history", args=[game.pk])):
        assert outsider_client.get(url).status_code == 404
        assert client.get(url).status_code == 302  # logged out: the login page, which says nothing
    assert reverse("games:game", args=[game.pk]) not in outsider_client.get(reverse("games:watch")).content.decode()
    finish(game)
    assert outsider_client.get(reverse("games:game", args=[game.pk])).status_code == 404


def test_a_finished_daily_game_has_no_solver_job_of_its_own_and_its_solution_is_the_days(alice, alice_client):
    from games.solutions.models import SolverJob

    game = finish(played(alice_client))
    # The daily deal searches its deal once for everyone (and says so once the day is over).
    assert not SolverJob.objects.filter(game=game).exists()
    answer = alice_client.get(reverse("games:solution", args=[game.pk]))
    assert answer.status_code == 302 and answer["Location"] == results_url()
    assert alice_client.post(reverse("games:solution", args=[game.pk])).status_code == 302
    assert not SolverJob.objects.filter(game=game).exists()


def test_results_wait_until_the_account_finished_the_deal(alice, bob, alice_client, bob_client, outsider_client):
    finish(played(alice_client))
    alice_client.post(reverse("daily:share", args=[daily.today().isoformat(), "know_thyself"]), {"shared": "1"})
    played(bob_client)  # started, not finished
    for client, says in ((bob_client, "Finish your game of today&#x27;s Know Thyself deal first"),
                         (outsider_client, "Play today&#x27;s Know Thyself deal to the end")):
        answer = client.get(results_url())
        assert answer.status_code == 403 and says in answer.content.decode()
        assert "Alice" not in answer.content.decode().split("<main", 1)[1]
        shared = client.post(reverse("daily:share", args=[daily.today().isoformat(), "know_thyself"]),
                             {"shared": "1"})
        assert shared.status_code == 403
    assert not Play.objects.filter(shared=True).exclude(user__username="alice").exists()
    # A past day nobody played, and a day that is no date: nothing to see.
    assert alice_client.get(results_url(day=dt.date(2020, 1, 1))).status_code == 404
    assert alice_client.get("/daily/2026-13-45/know_thyself/").status_code == 404


# Where a card's code or name could be read: a code standing alone ("M9", "10c", "Qs").
def _mentions(text: str, card: str) -> bool:
    return bool(re.search(rf"(?<![A-Za-z0-9]){re.escape(card)}(?![A-Za-z0-9])", text)) or deck.name(card) in text


def test_nothing_of_the_deal_reaches_an_account_that_has_not_finished_it(
        alice, bob, outsider, alice_client, bob_client, outsider_client, smtp_server):
    from sefirot_site.outbox.tasks import run_pending

    game = finish(played(alice_client))
    share_url = reverse("daily:share", args=[daily.today().isoformat(), "know_thyself"])
    assert alice_client.post(share_url, {"shared": "1"}).status_code == 302
    for pending in PendingTask.objects.filter(done_at__isnull=True):  # the mails and the seal, as a worker would
        run_pending(pending.pk)
    play = Play.objects.get(user=alice)
    assert play.seal_svg  # drawn, and shown to those who finished the deal only
    entry = Entry.objects.get(owner=alice, source_game=game)
    rules = game.rules
    first = rules.loads(Game.objects.get(pk=game.pk).state)
    deal_cards = set(readings.all_cards(entry.reading))
    deal_cards |= {c for zone, held in rules.zones(rules.new_game(game.seed, 1, game.options)).items()
                   if zone != "deck" for c in held}
    assert deal_cards and first

    bobs = played(bob_client)  # Bob is playing the deal; the outsider has not started it
    pages = {
        "outsider": [TODAY_URL, results_url(), reverse("games:list"), "/",
                     reverse("games:game", args=[game.pk]), reverse("games:history", args=[game.pk]),
                     reverse("games:record", args=[game.pk]), reverse("games:review", args=[game.pk]),
                     reverse("games:version", args=[game.pk]) + "?version=0",
                     reverse("journal:detail", args=[entry.pk])],
        "bob": [TODAY_URL, results_url(), reverse("games:game", args=[game.pk]),
                reverse("games:history", args=[game.pk]), reverse("games:record", args=[game.pk]),
                reverse("journal:detail", args=[entry.pk])],
    }
    clients = {"outsider": outsider_client, "bob": bob_client}
    for who, paths in pages.items():
        for path in paths:
            for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
                answer = clients[who].get(path, **headers)
                text = answer.content.decode()
                assert answer.status_code in (200, 403, 404), (who, path, answer.status_code)
                leaked = [c for c in deal_cards if _mentions(text, c)]
                assert not leaked, f"{path} shows {who} {leaked}"
        assert clients[who].post(reverse("games:hint", args=[game.pk])).status_code == 404
    for pending in PendingTask.objects.filter(done_at__isnull=True):
        run_pending(pending.pk)
    assert not smtp_server.messages_to(outsider.email)
    for message in smtp_server.messages_to(bob.email):  # Bob's mail is of his own game only
        assert f"/games/{game.pk}/" not in message.as_string() and f"/games/{bobs.pk}/" in message.as_string()


def test_a_shared_reading_shows_its_seal_to_the_others_who_finished(alice, bob, alice_client, bob_client):
    finish(played(alice_client))
    finish(played(bob_client))
    share_url = reverse("daily:share", args=[daily.today().isoformat(), "know_thyself"])
    page = bob_client.get(results_url()).content.decode()
    assert "Nobody has shown their reading of this deal yet" in page
    assert alice_client.post(share_url, {"shared": "1"}).status_code == 302
    task = PendingTask.objects.get(task="daily.draw_shared_seal")
    play = Play.objects.get(user=alice)
    assert task.args == [play.pk]
    assert daily.draw_shared_seal(play.pk) == "drawn"
    assert daily.draw_shared_seal(play.pk) == "nothing to do"
    page = bob_client.get(results_url()).content.decode()
    assert 'alt="The seal of Alice\'s reading:' in page and "data:image/svg+xml;base64," in page
    assert "Your reading is private" in page
    assert alice_client.post(share_url, {"shared": "0"}).status_code == 302
    assert "The seal of Alice" not in bob_client.get(results_url()).content.decode()


def test_streaks_count_consecutive_days_with_a_finished_deal(alice, bob):
    today = daily.today()

    def finished_on(days_ago: int, user=alice, mode="know_thyself"):
        deal = daily.deal_for(today - dt.timedelta(days=days_ago), mode)
        game = Game.objects.create(mode=mode, seed=deal.seed, players=1, state="{}")
        Play.objects.create(deal=deal, user=user, game=game, finished_at=timezone.now(), won=True, moves=3)

    assert daily.streaks(alice) == {"current": 0, "best": 0}
    for days_ago in (1, 2, 3, 6, 7):
        finished_on(days_ago)
    finished_on(2, mode="dream_odyssey")  # two deals on one day count once
    assert daily.streaks(alice) == {"current": 3, "best": 3}  # today is still open
    finished_on(0)
    assert daily.streaks(alice) == {"current": 4, "best": 4}
    finished_on(5, user=bob)
    assert daily.streaks(bob) == {"current": 0, "best": 1}


@pytest.mark.parametrize("entries", [10, 200])
def test_the_leaderboard_costs_the_same_queries_whatever_its_size(entries, alice, alice_client, make_user):
    from django.contrib.auth import get_user_model

    deal = daily.deal_for(daily.today(), "know_thyself")
    finish(played(alice_client))
    users = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"p{n}", display_name=f"Player {n}", email=f"p{n}@example.com")
         for n in range(entries)])
    games = Game.objects.bulk_create([Game(mode="know_thyself", seed=deal.seed, players=1, state="{}",
                                           status=Game.Status.FINISHED) for _ in users])
    Play.objects.bulk_create([Play(deal=deal, user=u, game=g, finished_at=deal.created_at, won=n % 2 == 0,
                                   score=n, moves=n + 10, seconds=60 + n, shared=n % 3 == 0,
                                   seal_svg="<svg xmlns='http://www.w3.org/2000/svg'/>" if n % 3 == 0 else "",
                                   seal_words=["will"], reading_title="A reading")
                              for n, (u, g) in enumerate(zip(users, games))])
    alice_client.get(results_url())  # the session and the cache warmed
    with CaptureQueriesContext(connection) as queries:
        answer = alice_client.get(results_url())
    assert answer.status_code == 200 and answer.content.decode().count("<tr") == entries + 2
    # session, user, the deal, Alice's play and game, the leaderboard, the shared readings
    # (and the navigation's count of games waiting): the same at 10 and at 200.
    assert len(queries) <= 8, [q["sql"] for q in queries.captured_queries]


# --- where a daily game that ended leads: its own day's results --------------------------


def _results_link(day=None) -> str:
    from games.mail.outgoing import absolute

    return absolute(results_url(day=day))


def test_a_finished_daily_games_page_leads_to_its_own_days_results(alice, alice_client, outsider_client):
    game = finish(played(alice_client))
    # Played yesterday, looked at today: the page leads to yesterday's results, not today's.
    yesterday = daily.today() - dt.timedelta(days=1)
    Deal.objects.filter(plays__game=game).update(day=yesterday)
    page = alice_client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert f'<a href="{results_url(day=yesterday)}">The results of this daily deal' in page
    assert f'<a href="{TODAY_URL}">The results' not in page
    assert alice_client.get(results_url(day=yesterday)).status_code == 200
    assert outsider_client.get(reverse("games:game", args=[game.pk])).status_code == 404


def test_a_finished_daily_game_offers_no_rematch_and_refuses_one_asked_for(alice, alice_client):
    game = finish(played(alice_client))
    page = alice_client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert ">Rematch</button>" not in page
    games_before = Game.objects.count()
    # A form posted anyway (a page kept from before) comes back to the game with the reason.
    answer = alice_client.post(reverse("games:rematch", args=[game.pk]), follow=True)
    assert answer.redirect_chain == [(reverse("games:game", args=[game.pk]), 302)]
    assert "A daily deal is played once" in answer.content.decode()
    assert Game.objects.count() == games_before


def test_an_ordinary_finished_game_has_no_daily_results_link(alice, alice_client):
    from games import services

    game = finish(services.start_game(alice, "know_thyself", seed=5))
    page = alice_client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "The results of this daily deal" not in page and ">Rematch</button>" in page
    assert daily.results_path(game) == ""


def test_the_mail_of_a_daily_game_that_ended_leads_to_that_days_results_which_still_wait_for_the_others(
        alice, bob, alice_client, bob_client, outsider_client, smtp_server):
    from games.mail.tasks import send_game_over_mail

    game = played(alice_client)
    played(bob_client)  # Bob is still playing the deal; the outsider never started it
    assert alice_client.post(reverse("games:resign", args=[game.pk])).status_code == 302
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.ABANDONED
    assert send_game_over_mail(game.pk, game.version) == "sent 1"
    mail = smtp_server.wait_for(alice.email)
    assert f"How everyone did with this day's deal: {_results_link()}" in smtp_server.text(mail)
    assert f'href="{_results_link()}"' in mail.get_body(preferencelist=("html",)).get_content()
    # Alice ended her game (giving up ends it too): the page is hers to see.
    answer = alice_client.get(results_url())
    assert answer.status_code == 200 and 'class="daily-board__you"' in answer.content.decode()
    # The same link, followed by whoever has not finished the deal, says why not.
    for client, says in ((bob_client, "Finish your game of today&#x27;s Know Thyself deal first"),
                         (outsider_client, "Play today&#x27;s Know Thyself deal to the end")):
        answer = client.get(results_url())
        assert answer.status_code == 403 and says in answer.content.decode()
        assert "Alice" not in answer.content.decode().split("<main", 1)[1]


def test_a_daily_game_ended_by_a_mail_reply_answers_with_that_days_results(alice, alice_client, smtp_server):
    import random

    from games import services
    from games.mail.inbound import handle_message
    from games.mail.outgoing import numbered_moves, reply_address

    from ..games.mail_helpers import reply

    game = played(alice_client)
    choose = random.Random(3)
    for _ in range(2000):  # up to a position where one move ends the game
        game = Game.objects.get(pk=game.pk)
        rules, state = game.rules, game.load_state()
        ending = [m for m in numbered_moves(game, state, 0) if rules.outcome(rules.apply(state, 0, m.move))]
        if ending:
            break
        services.submit_move(game.pk, game.seats.get(index=0), choose.choice(rules.legal_moves(state, 0)),
                             game.version)
    assert ending, "no position one move from the end"
    seat = game.seats.select_related("user", "game").get(index=0)
    outcome = handle_message(reply(reply_address(seat, game.version), str(ending[0].number),
                                   sender=alice.email).as_bytes())
    assert outcome.status == "played"
    assert Game.objects.get(pk=game.pk).is_over
    answer = smtp_server.text(smtp_server.wait_for(alice.email))
    assert "The game is over" in answer and f"How everyone did with this day's deal: {_results_link()}" in answer
