"""Journal entries: from finished games, by hand, drawn by the site; finding them again."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from games.engine import cards as deck
from journal import readings, services
from journal.models import Entry, Mode

from .conftest import finish_know_thyself

pytestmark = pytest.mark.django_db


# --- from games ----------------------------------------------------------------------------


def test_a_finished_know_thyself_game_leaves_an_entry_laid_out_as_on_the_tree(finished_game, alice):
    entry = Entry.objects.get(owner=alice, source_game=finished_game)

    assert entry.mode == Mode.KNOW_THYSELF
    assert entry.source_seat == 0
    central = entry.reading["sections"][0]
    # The middle pillar, top to bottom as the player sees the board.
    assert [p["id"] for p in central["positions"]] == ["crown", "knowledge", "spirit", "foundation"]
    assert all(deck.is_major(p["card"]) for p in central["positions"])
    assert all(p["question"].endswith("?") for p in central["positions"])
    engine_reading = finished_game.rules.reading(finished_game.load_state())
    obstacle = entry.reading["sections"][1]["positions"][0]
    assert obstacle["card"] == engine_reading["obstacle"]["card"]
    assert obstacle["question"] == engine_reading["obstacle"]["question"]
    for pos in engine_reading["positions"]:
        mine = next(p for p in central["positions"] if p["id"] == pos["space"])
        assert [m["card"] for m in mine["minors"]] == pos["minors"]


def test_the_entry_page_shows_each_cards_keyword_and_its_question(finished_game, alice, alice_client):
    entry = Entry.objects.get(owner=alice, source_game=finished_game)

    page = alice_client.get(entry.get_absolute_url()).content.decode()

    for pos in entry.reading["sections"][0]["positions"]:
        assert deck.label(pos["card"]) in page
        assert deck.keyword(pos["card"]) in page
        assert pos["question"].replace("'", "&#x27;") in page


def test_the_game_signal_can_fire_twice_and_still_make_one_entry(finished_game, alice):
    services.on_game_finished(None, game_id=finished_game.pk, status="finished", version=finished_game.version)
    services.entries_from_game(finished_game.pk)

    assert Entry.objects.filter(owner=alice, source_game=finished_game).count() == 1


def test_an_abandoned_game_makes_no_entry(alice, django_capture_on_commit_callbacks):
    from games import services as games

    with django_capture_on_commit_callbacks(execute=True):
        game = games.start_game(alice, "know_thyself", seed=3)
        games.abandon_game(game.pk, "Alice walked away.")

    assert not Entry.objects.filter(owner=alice).exists()


def test_each_player_gets_their_own_entry_and_nobody_else_does(alice, bob, outsider,
                                                               django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        alices = finish_know_thyself(alice, seed=2)
        bobs = finish_know_thyself(bob, seed=3)

    assert list(Entry.objects.filter(owner=alice).values_list("source_game", flat=True)) == [alices.pk]
    assert list(Entry.objects.filter(owner=bob).values_list("source_game", flat=True)) == [bobs.pk]
    assert not Entry.objects.filter(owner=outsider).exists()


# --- by hand ---------------------------------------------------------------------------------


def post_by_hand(client, spread: str, title: str, *rows: dict, **fields):
    """Post the journal's form for a reading laid out by hand: one dict a card row (``card``,
    with ``label``, ``minors`` or ``reversed`` where the test wants them), dated 1 March 2026;
    ``fields`` adds the rest of the form (tags)."""
    data = {"spread": spread, "title": title, "date": "2026-03-01", **fields,
            "row-TOTAL_FORMS": str(len(rows)), "row-INITIAL_FORMS": "0", "row-MIN_NUM_FORMS": "1",
            "row-MAX_NUM_FORMS": "10"}
    for index, row in enumerate(rows):
        data.update({f"row-{index}-{key}": value for key, value in row.items()})
    return client.post(reverse("journal:new"), data)



def test_a_reading_from_a_physical_deck_keeps_positions_orientation_and_minors(alice_client, alice):
    response = post_by_hand(alice_client, "three", "Kitchen table",
                            {"label": "Past", "card": "M9", "minors": "Ace of Cups, 3s"},
                            {"label": "Present", "card": "Qp", "reversed": "on"},
                            {"label": "Future", "card": "M19"}, tags="Family, money")

    entry = Entry.objects.get(owner=alice)
    assert response.status_code == 302 and response["Location"] == entry.get_absolute_url()
    assert entry.mode == Mode.PHYSICAL and entry.date == dt.date(2026, 3, 1)
    positions = entry.reading["sections"][0]["positions"]
    assert [(p["id"], p["card"], p["reversed"]) for p in positions] == [
        ("past", "M9", False), ("present", "Qp", True), ("future", "M19", False)]
    assert positions[0]["minors"] == [{"card": "Ac", "reversed": False}, {"card": "3s", "reversed": False}]
    assert positions[0]["question"] == readings.SPREADS["three"].positions[0].question
    assert sorted(t.name for t in entry.tags.all()) == ["family", "money"]


def test_a_physical_reading_with_a_card_twice_is_refused_and_nothing_is_saved(alice_client, alice):
    response = post_by_hand(alice_client, "one", "Oops", {"card": "Ac", "minors": "Ace of Cups"})

    assert response.status_code == 400
    assert "appears twice" in response.content.decode()
    assert not Entry.objects.filter(owner=alice).exists()


def test_a_minor_name_that_is_no_card_gets_a_clear_message(alice_client, alice):
    response = post_by_hand(alice_client, "one", "Typo", {"card": "M1", "minors": "Eleven of Cups"})

    assert response.status_code == 400
    assert "is not a card" in response.content.decode()
    assert not Entry.objects.exists()


def test_more_minors_on_one_card_than_a_reading_keeps_is_a_clear_400_and_nothing_is_saved(alice_client, alice):
    # Twenty-eight different Minors fit the field; a position keeps at most twenty.
    minors = ", ".join(f"{rank}{suit}" for suit in "cs" for rank in deck.RANKS)

    response = post_by_hand(alice_client, "one", "Crowded", {"card": "M1", "minors": minors})

    assert response.status_code == 400
    assert f"At most {readings.MAX_MINORS} Minors" in response.content.decode()
    assert not Entry.objects.filter(owner=alice).exists()


def test_the_central_sefira_spread_takes_only_majors_as_when_the_site_draws_it(alice_client, alice):
    response = post_by_hand(alice_client, "sefira", "Tree by hand",
                            {"card": "M4"}, {"card": "Ac"}, {"card": "M9"}, {"card": "M19"})

    assert response.status_code == 400
    assert "Spirit takes a Major; Ace of Cups is a Minor." in response.content.decode()
    assert not Entry.objects.filter(owner=alice).exists()


def test_a_central_sefira_reading_by_hand_is_laid_out_on_the_tree(alice_client, alice):
    response = post_by_hand(alice_client, "sefira", "Tree by hand",
                            {"card": "M4", "minors": "Ace of Cups"}, {"card": "M2", "reversed": "on"},
                            {"card": "M9"}, {"card": "M19"})

    entry = Entry.objects.get(owner=alice)
    assert response.status_code == 302 and entry.reading["layout"] == "tree"
    assert [(p["id"], p["card"], p["reversed"]) for p in entry.reading["sections"][0]["positions"]] == [
        ("foundation", "M4", False), ("spirit", "M2", True), ("knowledge", "M9", False), ("crown", "M19", False)]


def test_a_reading_with_positions_of_my_own_keeps_my_names_for_them(alice_client, alice):
    response = post_by_hand(alice_client, "free", "My way",
                            {"label": "What I fear", "card": "M16", "reversed": "on"},
                            {"label": "What I hope", "card": "3w"})

    entry = Entry.objects.get(owner=alice)
    assert response.status_code == 302
    assert [(p["label"], p["card"], p["reversed"]) for p in entry.reading["sections"][0]["positions"]] == [
        ("What I fear", "M16", True), ("What I hope", "3w", False)]


def test_a_drawn_spread_keeps_its_seed_and_the_seed_redraws_the_same_cards(alice_client, alice):
    response = alice_client.post(reverse("journal:draw"), {"spread": "sefira", "reversals": "on"})

    entry = Entry.objects.get(owner=alice)
    assert response.status_code == 302
    assert entry.mode == Mode.DRAWN
    seed = entry.reading["draw"]["seed"]
    again = readings.draw_spread("sefira", reversals=True, seed=seed)
    assert again["sections"] == entry.reading["sections"]
    cards = [p["card"] for p in entry.reading["sections"][0]["positions"]]
    assert len(set(cards)) == 4 and all(deck.is_major(c) for c in cards)


def test_two_draws_use_different_seeds(alice):
    first = services.record_drawn(alice, spread="three", reversals=False)
    second = services.record_drawn(alice, spread="three", reversals=False)

    assert first.reading["draw"]["seed"] != second.reading["draw"]["seed"]
    assert not any(p["reversed"] for p in first.reading["sections"][0]["positions"])


# --- reflections, tags, editing ---------------------------------------------------------------


def test_the_owner_writes_reflections_through_htmx_and_sees_them_in_place(alice_client, drawn_entry):
    response = alice_client.post(reverse("journal:edit", args=[drawn_entry.pk]), {
        "title": drawn_entry.title, "date": "2026-04-02", "tags": "morning, calm",
        "reflections": "The Hermit again.\n\nQuiet is **useful**.", "reflections_format": "markdown",
    }, HTTP_HX_REQUEST="true")

    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="reflections">')
    assert "<strong>useful</strong>" in html
    drawn_entry.refresh_from_db()
    assert drawn_entry.reflections_format == "markdown"
    assert sorted(t.name for t in drawn_entry.tags.all()) == ["calm", "morning"]


def test_an_edit_with_a_bad_date_changes_nothing(alice_client, drawn_entry):
    response = alice_client.post(reverse("journal:edit", args=[drawn_entry.pk]), {
        "title": "New title", "date": "yesterday-ish", "reflections": "x", "reflections_format": "text",
    })

    assert response.status_code == 400
    drawn_entry.refresh_from_db()
    assert drawn_entry.title == "Morning draw"


def test_the_owner_can_delete_an_entry(alice_client, drawn_entry):
    response = alice_client.post(reverse("journal:delete", args=[drawn_entry.pk]))

    assert response.status_code == 302
    assert not Entry.objects.filter(pk=drawn_entry.pk).exists()


# --- finding ------------------------------------------------------------------------------------


@pytest.fixture
def three_entries(alice):
    one = services.create_entry(alice, title="Dream of water", mode=Mode.PHYSICAL, date=dt.date(2026, 1, 5),
                                reading=readings.manual_reading("one", [{"card": "M12"}]),
                                reflections="A flood in the cellar", tags=["dreams"])
    two = services.create_entry(alice, title="Work question", mode=Mode.DRAWN, date=dt.date(2026, 2, 5),
                                reading=readings.manual_reading("three", [{"card": "9p"}, {"card": "M19"},
                                                                           {"card": "Kp"}]),
                                tags=["work"])
    three = services.create_entry(alice, title="Evening", mode=Mode.PHYSICAL, date=dt.date(2026, 3, 5),
                                  reading=readings.manual_reading("one", [{"card": "M19", "minors": ["2c"]}]))
    return one, two, three


def titles(response):
    return [e.title for e in response.context["page"].object_list]


def test_the_list_shows_newest_first(alice_client, three_entries):
    response = alice_client.get(reverse("journal:list"))

    assert titles(response) == ["Evening", "Work question", "Dream of water"]


@pytest.mark.parametrize("query, expected", [
    ({"q": "flood"}, ["Dream of water"]),
    ({"q": "WORK"}, ["Work question"]),
    ({"card": "M19"}, ["Evening", "Work question"]),
    ({"card": "2c"}, ["Evening"]),
    ({"tag": "dreams"}, ["Dream of water"]),
    ({"mode": "drawn"}, ["Work question"]),
    ({"mode": "physical", "card": "M19"}, ["Evening"]),
])
def test_search_by_text_card_tag_and_mode(alice_client, three_entries, query, expected):
    assert titles(alice_client.get(reverse("journal:list"), query)) == expected


def test_an_htmx_search_returns_only_the_results_region(alice_client, three_entries):
    response = alice_client.get(reverse("journal:list"), {"q": "flood"}, HTTP_HX_REQUEST="true")

    html = response.content.decode()
    assert html.lstrip().startswith('<section id="results"')
    assert "Dream of water" in html and "<form" not in html


def test_statistics_count_cards_and_suits_in_the_chosen_period(alice_client, three_entries):
    response = alice_client.get(reverse("journal:stats"), {"period": "custom", "start": "2026-02-01",
                                                           "end": "2026-03-31"})

    stats = response.context["stats"]
    assert stats["entries"] == 2
    assert stats["cards"][0] == {"card": "M19", "label": deck.label("M19"), "n": 2}
    suits = {row["suit"]: row["n"] for row in stats["suits"]}
    assert suits == {"major": 2, "c": 1, "s": 0, "p": 2, "w": 0}
    html = response.content.decode()
    assert "<svg" in html and "XIX The Sun: 2" in html


def test_the_statistics_page_names_the_period_it_counts_when_none_is_chosen(alice_client, three_entries):
    response = alice_client.get(reverse("journal:stats"))

    assert response.context["period"] == "90"
    assert '<option value="90" selected>' in response.content.decode()


def test_statistics_of_all_time_include_every_entry(alice_client, three_entries):
    stats = alice_client.get(reverse("journal:stats"), {"period": "all"}).context["stats"]

    assert stats["entries"] == 3 and stats["total"] == 6


# --- every mode's reading -------------------------------------------------------------------------


def play_out(slug: str, seed: int):
    from games.engine import get_rules
    import random

    rules = get_rules(slug)
    state = rules.new_game(seed=seed, players=rules.min_players)
    choose = random.Random(seed)
    while rules.to_act(state):
        seat = rules.to_act(state)[0]
        # Nobody forfeits here: a war given up at once tells no story to check.
        moves = [m for m in rules.legal_moves(state, seat) if m["type"] != "forfeit"]
        state = rules.apply(state, seat, choose.choice(moves or rules.legal_moves(state, seat)))
    return rules, state


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
@pytest.mark.parametrize("slug, layout, first_section", [
    ("know_thyself", "tree", "central"),
    ("lovers_discourse", "starfield", "three_cards"),
    ("warring_planets", "starfield", "conflict"),
    ("dream_odyssey", "tale", "crown"),
])
def test_every_modes_finished_game_gives_a_reading_the_journal_can_keep(slug, layout, first_section, seed):
    rules, state = play_out(slug, seed)

    reading = readings.from_game(slug, rules, state, 0)

    assert reading["layout"] == layout
    assert reading["sections"][0]["id"] == first_section
    assert readings.clean_reading(reading) == reading
    cards = readings.all_cards(reading)
    assert cards and all(deck.is_card(c) for c in cards)
    for section in reading["sections"]:
        for pos in section["positions"]:
            assert pos["label"] and pos["question"], (section["id"], pos)
    if slug == "dream_odyssey":
        assert reading["story"], "the tale comes along"
    if slug == "warring_planets":
        assert reading["story"], "the conflict told as a story"


def test_a_lovers_discourse_reading_has_the_spread_the_sacred_columns_and_the_ouroboros_rings():
    # The first of a few seeded games that lasts long enough to fill a ring.
    for seed in range(1, 12):
        rules, state = play_out("lovers_discourse", seed)
        reading = readings.from_game("lovers_discourse", rules, state, 0)
        if len(reading["sections"]) == 3:
            break
    else:
        pytest.fail("no seeded game reached the Ouroboros rings")

    assert [s["id"] for s in reading["sections"]] == ["three_cards", "sacred_columns", "ouroboros"]
    columns = reading["sections"][1]["positions"]
    assert columns and all(p["id"][0] in "LCR" and p["card"] for p in columns)
    ring_cards = [p["card"] for p in reading["sections"][2]["positions"]]
    assert ring_cards and set(ring_cards) <= {p["card"] for p in columns}


def test_a_war_forfeited_before_any_card_still_leaves_an_entry_to_reflect_on(alice, bob):
    from games.engine import get_rules

    rules = get_rules("warring_planets")
    state = rules.apply(rules.new_game(seed=1, players=2), 0, {"type": "forfeit"})

    reading = readings.from_game("warring_planets", rules, state, 1)
    entry = services.create_entry(bob, title="A short war", mode=Mode.WARRING_PLANETS, reading=reading)

    assert readings.all_cards(entry.reading) == []
    assert "forfeit" in entry.reading["summary"]


def test_a_lovers_discourse_game_leaves_an_entry_for_both_partners(alice, bob, django_capture_on_commit_callbacks):
    import random

    from games import services as games
    from games.models import Game

    with django_capture_on_commit_callbacks(execute=True):
        game = games.start_game(alice, "lovers_discourse", opponent=bob, seed=5)
        games.accept_invitation(game.pk, bob)
        choose = random.Random(5)
        while True:
            game = Game.objects.get(pk=game.pk)
            if game.status != Game.Status.ACTIVE:
                break
            rules, state = game.rules, game.load_state()
            seat = rules.to_act(state)[0]
            player = alice if seat == 0 else bob
            games.submit_move(game.pk, player, choose.choice(rules.legal_moves(state, seat)), game.version)

    alices = Entry.objects.get(owner=alice, source_game=game)
    bobs = Entry.objects.get(owner=bob, source_game=game)
    assert alices.mode == bobs.mode == Mode.LOVERS_DISCOURSE
    assert alices.reading["sections"][0]["id"] == "three_cards"
    assert (alices.source_seat, bobs.source_seat) == (0, 1)
    cards, words = services.default_seal_input(alices)
    assert 2 <= len(cards) <= 5 and words == [deck.keyword(c) for c in cards]


@pytest.mark.django_db
def test_each_players_entry_says_their_own_result_and_names_the_players(alice, bob, alice_client, bob_client,
                                                                        django_capture_on_commit_callbacks):
    import io
    import zipfile

    from django.urls import reverse

    from games import services as games

    game = games.start_game(alice, "warring_planets", {}, opponent=bob, seed=4)
    games.accept_invitation(game.pk, bob)
    with django_capture_on_commit_callbacks(execute=True):
        games.resign(game.pk, bob)

    won = Entry.objects.get(owner=alice, source_game=game)
    lost = Entry.objects.get(owner=bob, source_game=game)
    assert won.title == "Warring Planets, won" and lost.title == "Warring Planets, lost"
    assert won.reading["summary"].startswith("You won") and lost.reading["summary"].startswith("You lost")
    for entry in (won, lost):
        assert "seat" not in entry.reading["summary"].lower()
        assert "Bob" in entry.reading["summary"] or "Alice" in entry.reading["summary"]
    assert "Warring Planets, lost" in bob_client.get(reverse("journal:list")).content.decode()
    archive = zipfile.ZipFile(io.BytesIO(b"".join(bob_client.get(reverse("journal:export")).streaming_content)))
    assert any("lost" in name for name in archive.namelist() if name.startswith("entries/"))
    assert not any("won" in name for name in archive.namelist() if name.startswith("entries/"))
