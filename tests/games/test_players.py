"""Players meeting players (issue 41, items 2 and 3): a player's page with their record,
ratings explained and drawn with their history, recent games and an invitation; a private
page shows others the name alone; finding players by name; following them, by POST only,
once, never oneself; their open challenges on My games. Every page asks as many queries
at 200 games, hits or followed players as at 10."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.computer import computer_player
from games.models import Game
from games.players.models import Follow
from games.players.queries import HISTORY_POINTS, PAGE
from games.ratings.models import PROVISIONAL_GAMES, Rating, RatingChange

pytestmark = pytest.mark.django_db


def profile_url(user) -> str:
    return reverse("players:profile", args=[user.username])


def duels(winner, loser, count: int) -> list[Game]:
    """``count`` finished games of Warring Planets, each won by ``winner`` (the loser forfeits)."""
    games = []
    for n in range(count):
        game = services.start_game(winner, "warring_planets", {}, opponent=loser, seed=n)
        services.accept_invitation(game.pk, loser)
        services.resign(game.pk, loser)
        games.append(game)
    return games


def queries_of(client, path, data=None, status=200) -> int:
    with CaptureQueriesContext(connection) as captured:
        answer = client.get(path, data or {})
    assert answer.status_code == status, answer.content[:500]
    return len(captured)


def text_of(answer) -> str:
    """What a page (an answer, or its HTML) says, its tags and runs of spaces left out."""
    html = answer if isinstance(answer, str) else answer.content.decode()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


# --- the profile ---------------------------------------------------------------------------


def test_a_profile_shows_the_record_per_game_with_the_games_won(alice, bob, outsider_client):
    duels(alice, bob, 3)
    duels(bob, alice, 1)
    solo = services.start_game(alice, "know_thyself", {}, seed=1)
    services.abandon_game(solo.pk, "Stopped.")  # abandoned: not counted

    html = outsider_client.get(profile_url(alice)).content.decode()

    row = re.search(r"<tr><th scope=\"row\">Warring Planets</th><td class=\"number\">(\d+)</td>"
                    r"<td class=\"number\">(\d+)</td></tr>", html)
    assert row and row.groups() == ("4", "3")
    assert "Know Thyself" not in html.split('id="record-heading"')[1].split("</section>")[0]


def test_a_cooperative_game_won_counts_for_both_partners(alice, bob, client):
    from tests.games.conftest import reload

    game = services.start_game(alice, "lovers_discourse", {}, opponent=bob, seed=3)
    services.accept_invitation(game.pk, bob)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, outcome={"result": "win", "winners": [0, 1]})
    assert reload(game).result_for(1) == "you won together"

    for player in (alice, bob):
        assert "Lovers' Discourse 1 1" in text_of(client.get(profile_url(player))).replace("&#x27;", "'")


def test_a_rating_is_explained_in_words_with_its_uncertainty_and_drawn(alice, bob, client):
    duels(alice, bob, 3)
    rating = Rating.objects.get(user=alice, mode="warring_planets")

    answer = client.get(profile_url(alice))
    said = text_of(answer)
    html = answer.content.decode()

    assert f"Rated {rating.shown} after 3 games" in said
    assert f"{rating.estimate} ± {rating.margin}" in said
    assert f"provisional until {PROVISIONAL_GAMES} games ({PROVISIONAL_GAMES - 3} more)" in said
    assert "cautious end of that range" in said and "openskill" in said
    # The chart: an image with its title and description, and the same numbers as a table.
    assert re.search(r'<svg class="rating-chart"[^>]*role="img"[^>]*aria-labelledby="chart-title-warring_planets '
                     r'chart-desc-warring_planets"', html)
    assert "<title id=\"chart-title-warring_planets\">Warring Planets rating, game by game</title>" in html
    assert "narrowed from ±250" in html
    table = html.split("rating as a table")[1].split("</table>")[0]
    assert table.count("<tr>") == 1 + 4  # the head, the start and three games
    assert f"<td class=\"number\">{rating.shown}</td>" in table


def test_each_rated_game_records_a_point_of_the_history(alice, bob):
    duels(alice, bob, 2)
    duels(bob, alice, 1)

    history = list(RatingChange.objects.filter(user=alice).order_by("games"))
    assert [c.games for c in history] == [1, 2, 3]
    last = Rating.objects.get(user=alice, mode="warring_planets")
    assert (history[-1].mu, history[-1].sigma) == (last.mu, last.sigma)
    assert history[-1].mu < history[-2].mu, "the lost game lowered the estimate"
    assert RatingChange.objects.filter(user=bob).count() == 3


def test_rebuilding_the_ratings_writes_the_same_history_again(alice, bob):
    from games.ratings.services import rebuild

    duels(alice, bob, 2)
    before = [(c.user_id, c.games, round(c.mu, 9)) for c in RatingChange.objects.order_by("user_id", "games")]
    rebuild()
    after = [(c.user_id, c.games, round(c.mu, 9)) for c in RatingChange.objects.order_by("user_id", "games")]
    assert before == after


def test_recent_games_link_to_their_history_and_say_how_they_ended(alice, bob, outsider_client):
    won = duels(alice, bob, 2)

    html = outsider_client.get(profile_url(bob)).content.decode()
    recent = html.split('id="recent-heading"')[1]

    for game in won:
        assert f'href="{reverse("games:history", args=[game.pk])}"' in recent
    assert "with Alice · lost" in text_of(recent)


def test_others_see_only_the_public_games_among_the_recent_ones_and_history_opens_for_them(
        alice, bob, bob_client, outsider_client):
    public = duels(alice, bob, 1)[0]
    private = services.start_game(alice, "warring_planets", {}, opponent=bob, seed=9, public=False)
    services.accept_invitation(private.pk, bob)
    services.resign(private.pk, bob)

    theirs = outsider_client.get(profile_url(bob)).content.decode().split('id="recent-heading"')[1]
    assert reverse("games:history", args=[public.pk]) in theirs
    assert reverse("games:history", args=[private.pk]) not in theirs
    assert outsider_client.get(reverse("games:history", args=[public.pk])).status_code == 200
    own = bob_client.get(profile_url(bob)).content.decode().split('id="recent-heading"')[1]
    assert reverse("games:history", args=[private.pk]) in own


def test_the_profile_shows_the_daily_deal_streak(alice, outsider_client):
    import datetime as dt

    from django.utils import timezone

    from games.daily import services as daily
    from games.daily.models import Play

    assert "No daily deal finished yet" in text_of(outsider_client.get(profile_url(alice)))
    for days_ago in (0, 1, 2):
        deal = daily.deal_for(daily.today() - dt.timedelta(days=days_ago), "know_thyself")
        game = Game.objects.create(mode="know_thyself", seed=deal.seed, players=1, state="{}", public=False)
        Play.objects.create(deal=deal, user=alice, game=game, finished_at=timezone.now(), won=True, moves=3)
    assert "Alice's streak: 3 days in a row with a daily deal finished; best 3 days." in text_of(
        outsider_client.get(profile_url(alice)))


def test_the_profile_offers_an_invitation_that_opens_the_new_game_page_with_the_player(alice, bob, alice_client):
    html = alice_client.get(profile_url(bob)).content.decode()
    link = re.search(r'href="(/games/new/\?opponent=user&amp;username=bob)"', html)
    assert link

    page = alice_client.get(link.group(1).replace("&amp;", "&")).content.decode()
    assert re.search(r'name="username"[^>]*value="bob"', page)
    assert re.search(r'<input type="radio" name="opponent" value="user"[^>]*checked', page)


def test_a_computer_players_page_shows_its_level_record_and_a_game_against_it(alice, client):
    thoth = computer_player("ismcts_deep")
    game = services.start_game(alice, "warring_planets", opponent=thoth, seed=5)
    services.resign(game.pk, alice)

    said = text_of(client.get(profile_url(thoth)))
    html = client.get(profile_url(thoth)).content.decode()

    assert "A computer player of the site, Thoth (deep, the strongest)" in said
    assert "Warring Planets 1 1" in said
    assert "opponent=computer&amp;computer_level=ismcts_deep" in html
    assert "Follow" not in said


def test_a_name_typed_in_another_case_leads_to_the_player_and_an_unknown_one_is_404(bob, client):
    answer = client.get("/players/BOB/")
    assert answer.status_code == 302 and answer["Location"] == profile_url(bob)
    assert client.get("/players/nobody-here/").status_code == 404


# --- private profiles ----------------------------------------------------------------------


@pytest.fixture
def private_bob(bob, alice):
    duels(bob, alice, 2)
    bob.profile_private = True
    bob.save(update_fields=["profile_private"])
    return bob


SECRETS = ("Warring Planets", "Rated", "Recent games", "/history/", "Invite", "Follow")


@pytest.mark.parametrize("visitor", ["outsider", "alice", None])
def test_a_private_profile_shows_others_the_name_alone(private_bob, visitor, request):
    client = Client()
    if visitor:
        client.force_login(request.getfixturevalue(visitor))

    answer = client.get(profile_url(private_bob))

    assert answer.status_code == 200
    main = answer.content.decode().split('<main')[1].split("</main>")[0]
    assert "This profile is private." in main and "Bob" in main
    for secret in SECRETS:
        assert secret not in main, secret


def test_its_owner_sees_all_of_a_private_profile(private_bob, bob_client):
    said = text_of(bob_client.get(profile_url(private_bob)))

    assert "This profile is private." not in said
    assert "Warring Planets 2 2" in said and "Rated" in said
    assert "it is private: others see only your name" in said


def test_the_account_page_keeps_the_profile_private(bob, bob_client):
    page = bob_client.get(reverse("profile")).content.decode()
    assert 'name="profile_private"' in page and "Keep my player page private" in page

    answer = bob_client.post(reverse("profile"), {"display_name": "Bob", "time_zone": "UTC", "turn_mail": "each",
                                                  "profile_private": "on"})

    assert answer.status_code == 302
    bob.refresh_from_db()
    assert bob.profile_private


# --- finding players -----------------------------------------------------------------------


def test_search_finds_names_whatever_the_case_and_look_alike_letters(make_user, alice_client):
    make_user("zephyr", display_name="Zeph the Wanderer")
    make_user("kazimir")
    make_user("other")

    said = text_of(alice_client.get(reverse("players:search"), {"q": "ZE"}))
    assert "Zeph the Wanderer" in said and "Kazimir" not in said and "other" not in said

    # A full-width and a Cyrillic letter read as the plain ones (the names' keys).
    said = text_of(alice_client.get(reverse("players:search"), {"q": "ＷＡＮＤЕＲ"}))
    assert "Zeph the Wanderer" in said

    said = text_of(alice_client.get(reverse("players:search"), {"q": "zim"}))
    assert "kazimir" in said


def test_a_search_result_offers_an_invitation_and_a_follow_switch(bob, alice_client):
    html = alice_client.get(reverse("players:search"), {"q": "bob"}).content.decode()

    assert 'href="/games/new/?opponent=user&amp;username=bob"' in html
    assert f'hx-post="{reverse("players:follow", args=["bob"])}"' in html


def test_search_needs_an_account_and_refuses_a_too_long_name(client, alice_client):
    assert client.get(reverse("players:search"), {"q": "bob"}).status_code == 302

    answer = alice_client.get(reverse("players:search"), {"q": "x" * 151})
    assert answer.status_code == 400 and "at most 150 characters" in answer.content.decode()


def test_search_is_rate_limited_per_account(alice_client, settings):
    settings.PLAYER_SEARCHES_PER_MINUTE = 3
    for _ in range(3):
        assert alice_client.get(reverse("players:search"), {"q": "bob"}).status_code == 200

    answer = alice_client.get(reverse("players:search"), {"q": "bob"})

    assert answer.status_code == 429 and "a lot of searches in a minute" in answer.content.decode()
    # The list of players one follows is no search.
    assert alice_client.get(reverse("players:search")).status_code == 200


# --- following -------------------------------------------------------------------------------


def test_follow_is_post_only_and_done_once_however_often_it_is_sent(alice, bob, alice_client):
    url = reverse("players:follow", args=["bob"])
    assert alice_client.get(url).status_code == 405
    assert not Follow.objects.exists()

    for _ in range(2):
        answer = alice_client.post(url, HTTP_HX_REQUEST="true")
        assert answer.status_code == 200 and "You follow Bob." in answer.content.decode()
    assert Follow.objects.filter(follower=alice, followed=bob).count() == 1

    for _ in range(2):
        answer = alice_client.post(reverse("players:unfollow", args=["bob"]), HTTP_HX_REQUEST="true")
        assert answer.status_code == 200 and "Follow<span" in answer.content.decode()
    assert not Follow.objects.exists()


def test_without_javascript_following_goes_back_to_the_page_it_came_from(bob, alice_client):
    answer = alice_client.post(reverse("players:follow", args=["bob"]), {"next": "/players/?q=bo"})
    assert answer.status_code == 302 and answer["Location"] == "/players/?q=bo"

    answer = alice_client.post(reverse("players:unfollow", args=["bob"]), {"next": "https://evil.example/"})
    assert answer.status_code == 302 and answer["Location"] == profile_url(bob)


def test_nobody_can_follow_themselves_and_is_told_why(alice, alice_client):
    for headers in ({"HTTP_HX_REQUEST": "true"}, {}):
        answer = alice_client.post(reverse("players:follow", args=["alice"]), **headers)
        assert answer.status_code == 400
        assert "You cannot follow yourself." in answer.content.decode()
    assert not Follow.objects.exists()


def test_a_computer_player_is_not_followed_and_the_answer_says_why(alice_client):
    thoth = computer_player("ismcts_deep")
    answer = alice_client.post(reverse("players:follow", args=[thoth.username]))
    assert answer.status_code == 400 and "computer player" in answer.content.decode()
    assert not Follow.objects.exists()


def test_following_needs_an_account_and_an_unknown_player_is_404(bob, client, alice_client):
    answer = client.post(reverse("players:follow", args=["bob"]))
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]
    assert alice_client.post(reverse("players:follow", args=["nobody-here"])).status_code == 404
    assert not Follow.objects.exists()


def test_the_players_page_lists_those_you_follow(alice, bob, make_user, alice_client):
    carol = make_user("carol", display_name="Carol")
    Follow.objects.create(follower=alice, followed=bob)

    said = text_of(alice_client.get(reverse("players:search")))

    assert "Players you follow" in said and "Bob" in said and "Carol" not in said
    assert carol  # followed by nobody: not listed


def test_my_games_shows_followed_players_and_their_open_challenges(alice, bob, outsider, alice_client):
    Follow.objects.create(follower=alice, followed=bob)
    challenge = services.start_game(bob, "warring_planets", {}, open_challenge=True, seed=1)
    stranger = services.start_game(outsider, "warring_planets", {}, open_challenge=True, seed=2)

    html = alice_client.get(reverse("games:list")).content.decode()
    section = html.split('id="followed-heading"')[1].split("</section>")[0]

    assert f'href="{profile_url(bob)}"' in section
    assert "Bob challenges anyone to <strong>Warring Planets</strong>" in section
    assert reverse("games:accept_challenge", args=[challenge.pk]) in section
    assert reverse("games:accept_challenge", args=[stranger.pk]) not in section

    assert alice_client.post(reverse("games:accept_challenge", args=[challenge.pk])).status_code == 302
    html = alice_client.get(reverse("games:list")).content.decode()
    assert "None of them has an open challenge now." in html


# --- constant queries --------------------------------------------------------------------------


def test_the_profile_asks_as_many_queries_at_200_finished_games_as_at_10(make_user, alice_client):
    few, many = make_user("few"), make_user("many")
    rival = make_user("rival")
    duels(few, rival, 10)
    duels(many, rival, 200)
    assert RatingChange.objects.filter(user=many).count() == 200
    queries_of(alice_client, profile_url(few))  # the session's first read

    assert queries_of(alice_client, profile_url(few)) == queries_of(alice_client, profile_url(many))
    html = alice_client.get(profile_url(many)).content.decode()
    assert html.split("rating as a table")[1].split("</table>")[0].count("<tr>") == 1 + HISTORY_POINTS
    # Anonymous, too.
    assert queries_of(Client(), profile_url(few)) == queries_of(Client(), profile_url(many))


def test_search_and_the_followed_list_ask_as_many_queries_for_200_players_as_for_10(make_user, alice):
    def follower_of(prefix, count):
        follower = make_user(f"{prefix}-follower")
        for n in range(count):
            followed = make_user(f"{prefix}{n:03d}")
            Follow.objects.create(follower=follower, followed=followed)
        services.start_game(followed, "warring_planets", {}, open_challenge=True, seed=1)
        client = Client()
        client.force_login(follower)
        queries_of(client, reverse("players:search"))
        return client

    few, many = follower_of("aaa", 10), follower_of("bbb", 200)

    assert queries_of(few, reverse("players:search")) == queries_of(many, reverse("players:search"))
    # Ten hits, and two hundred (names bbb100 to bbb199, bbb010 to bbb019...).
    assert queries_of(few, reverse("players:search"), {"q": "aaa0"}) == \
        queries_of(many, reverse("players:search"), {"q": "bbb1"})
    assert queries_of(few, reverse("games:list")) == queries_of(many, reverse("games:list"))
    assert text_of(many.get(reverse("players:search"), {"q": "bbb1"})).count("Invite") == PAGE


def test_an_anonymous_visitor_reads_a_departed_opponent_as_departed_never_as_you(alice, bob, client):
    from sefirot_site.accounts.services import delete_account

    duels(alice, bob, 1)
    delete_account(bob)

    said = text_of(client.get(profile_url(alice)))

    assert "with a departed player · won" in said and "with you" not in said


def test_the_lobby_leads_to_the_challenger_s_page(bob, outsider_client):
    services.start_game(bob, "warring_planets", {}, open_challenge=True, seed=1)

    html = outsider_client.get(reverse("games:lobby")).content.decode()

    assert f'by <a href="{profile_url(bob)}">Bob</a>' in html
