"""The tarot wizards table's rules, with stacked decks and seeds chosen for their dice.

A stacked deck deals in order: Ann's five, Ben's five, the GM's seven, then the rest of
the deck top first (``stacked``).  Dice come from the table's seed; ``seed_rolling``
finds a seed whose next roll is the one a scenario needs, so each test shows the real
randomness path, not a stand-in.
"""

from __future__ import annotations

import json
import random

import pytest

from games.engine import IllegalMove
from games.engine.cards import DECK
from games.engine.tarot_wizards import characters as ch
from games.engine.tarot_wizards import session as s
from games.engine.tarot_wizards.words import for_reader

NAMES = {"gm": "Gail", "ann": "Ann", "ben": "Ben"}


def stacked(ann=(), ben=(), gm=(), top=(), rest=True):
    """A deck whose first cards are the hands and then ``top``; hands are padded with
    cards the scenario does not use."""
    wanted = list(ann) + list(ben) + list(gm) + list(top)
    spare = [c for c in DECK if c not in wanted]
    order = []
    for hand, size in ((ann, 5), (ben, 5), (gm, 7)):
        hand = list(hand)
        while len(hand) < size:
            hand.append(spare.pop())
        order += hand
    order += list(top)
    return order + (spare if rest else [])


def table(deck_order, seed=1, **ann):
    players = {"ann": dict(name="Ann", prime=ann.get("prime", "s"), skills=ann.get("skills", ["lockpicking"])),
               "ben": dict(name="Ben", prime="c", skills=["riding"])}
    return s.new_session(seed, players, deck_order=deck_order, gm_name="Gail")


def seed_rolling(predicate, make, *, before=lambda st: st):
    """The first seed whose next roll (as ``make`` then ``before`` leave the state) meets ``predicate``."""
    for seed in range(1, 5000):
        state = before(make(seed))
        n = state["counter"]
        rng = random.Random(f"{seed}:{n}")
        if predicate(rng):
            return seed
    raise AssertionError("no seed found")


def text_of(state, reader="ann"):
    names = {**s.names(state), **NAMES}
    return "\n".join(for_reader(e["text"], reader, names) for e in s.log_for(state, reader))


def refused(state, by, move):
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalMove) as error:
        s.apply(state, by, move)
    assert json.dumps(state, sort_keys=True) == before
    return str(error.value)


def challenge(state, rating, **more):
    return s.apply(state, "gm", {"type": "challenge", "source": "rating", "rating": rating, **more})


def cast(state, by, index, **more):
    return s.apply(state, by, {"type": "cast", "index": index, **more})


# --- dealing ------------------------------------------------------------------------------------


def test_each_player_draws_five_and_the_gm_seven_from_one_shuffled_deck():
    state = s.new_session(42, {"ann": dict(name="Ann", prime="s"), "ben": dict(name="Ben", prime="c")})
    hands = state["actors"]["ann"]["hand"] + state["actors"]["ben"]["hand"] + state["gm_hand"]
    assert [len(state["actors"]["ann"]["hand"]), len(state["actors"]["ben"]["hand"]), len(state["gm_hand"])] == [5, 5, 7]
    assert sorted(hands + state["deck"]) == sorted(DECK)
    assert state["randomness"][0] == {"n": 0, "by": "gm", "what": "shuffle"}


def test_the_same_seed_deals_the_same_session_and_replay_rebuilds_it():
    players = {"ann": dict(name="Ann", prime="s"), "ben": dict(name="Ben", prime="c")}
    a, b = s.new_session(7, players), s.new_session(7, players)
    assert a == b and s.new_session(8, players)["deck"] != a["deck"]
    moves = [("gm", {"type": "challenge", "source": "deck"}), ("ann", {"type": "roll"}),
             ("ben", {"type": "cast", "index": 2})]
    assert s.replay(a, moves) == s.replay(b, moves)


def test_the_gm_refills_to_seven_when_the_hand_runs_out():
    state = table(stacked(gm=["2s", "3s", "4s", "5s", "6s", "7s", "8s"], top=["9s"]))
    for _ in range(7):
        state = s.apply(state, "gm", {"type": "challenge", "source": "hand", "index": 1})
    assert len(state["gm_hand"]) == 7 and state["gm_hand"][0] == "9s"


# --- casting against a challenge ------------------------------------------------------------------


def test_a_minor_work_meeting_the_rating_succeeds():
    state = cast(challenge(table(stacked(ann=["7w"])), 7), "ann", 1)
    assert "Value 7 meets rating 7: you succeeded." in text_of(state)
    assert state["challenge"] is None and "7w" in state["discard"]


def test_a_minor_work_below_the_rating_fails_and_the_challenge_stands():
    state = cast(challenge(table(stacked(ann=["6w"])), 7), "ann", 1)
    assert "falls short of rating 7: you failed" in text_of(state)
    assert state["challenge"]["rating"] == 7


def test_courts_are_eleven_and_aces_twelve():
    assert (s.card_value("Nw"), s.card_value("Kc"), s.card_value("Ap"), s.card_value("10s"), s.card_value("M13")) == \
        (11, 11, 12, 10, 13)


def test_a_prime_work_counts_two_more_also_by_a_court_cards_seat():
    state = table(stacked(ann=["6s", "Kw"]), prime="s")
    assert s.work_of(state, "ann", "6s")["value"] == 8
    assert s.work_of(state, "ann", "Kw")["prime"]  # the King sits with Air and Swords
    assert not s.work_of(state, "ann", "6w")["prime"]
    state = cast(challenge(state, 8), "ann", 1)
    assert "a Prime Work, value 8" in text_of(state) and "you succeeded" in text_of(state)


def test_a_relevant_skill_lowers_the_rating_by_two_and_must_be_on_the_sheet():
    state = challenge(table(stacked(ann=["5w"])), 7)
    assert "not on the character" in refused(state, "ann", {"type": "cast", "index": 1, "skill": "flying"})
    state = cast(state, "ann", 1, skill="lockpicking")
    assert "Value 5 meets rating 5 (with a skill)" in text_of(state)


def test_a_major_work_succeeds_and_costs_a_wound():
    state = cast(challenge(table(stacked(ann=["M1"])), 15), "ann", 1)
    assert "sweeps the challenge aside" in text_of(state)
    assert state["actors"]["ann"]["wounds"] == 1


def test_a_minor_work_cannot_meet_a_major_challenge():
    state = s.apply(table(stacked(ann=["Ac"], gm=["M16"])), "gm", {"type": "challenge", "source": "hand", "index": 1})
    state = cast(state, "ann", 1)
    assert "A Minor Work cannot meet a Major challenge" in text_of(state)


def test_a_cast_with_no_challenge_simply_takes_effect():
    assert "nothing stands against it" in text_of(cast(table(stacked(ann=["2w"])), "ann", 1))


def test_the_challenge_may_be_the_top_card_of_the_deck():
    state = s.apply(table(stacked(top=["9p"])), "gm", {"type": "challenge", "source": "deck"})
    assert state["challenge"]["rating"] == 9 and "top of the deck: rating 9" in text_of(state)
    assert any(r["what"].startswith("top card") and r["by"] == "gm" for r in state["randomness"])


def test_a_mundane_roll_is_a_d10_against_the_rating():
    make = lambda seed: challenge(table(stacked(), seed=seed), 6)  # noqa: E731
    good = seed_rolling(lambda r: r.randint(1, 10) >= 6, make)
    bad = seed_rolling(lambda r: r.randint(1, 10) < 6, make)
    won = s.apply(make(good), "ann", {"type": "roll"})
    lost = s.apply(make(bad), "ann", {"type": "roll"})
    assert "you succeeded" in text_of(won) and won["challenge"] is None
    assert "you failed" in text_of(lost) and lost["challenge"]["failed_roll"] == "ann"
    assert won["randomness"][-1]["by"] == "ann" and won["randomness"][-1]["what"] == "1d10"


def test_a_wound_buys_a_saving_spell_after_a_failed_roll_only():
    make = lambda seed: challenge(table(stacked(ann=["9w"]), seed=seed), 9)  # noqa: E731
    bad = seed_rolling(lambda r: r.randint(1, 10) < 9, make)
    state = make(bad)
    assert "only right after a failed roll" in refused(state, "ann", {"type": "cast", "index": 1, "save": True})
    state = s.apply(state, "ann", {"type": "roll"})
    state = cast(state, "ann", 1, save=True)
    assert state["actors"]["ann"]["wounds"] == 1 and "you succeeded" in text_of(state).splitlines()[-1]


# --- opposed works ------------------------------------------------------------------------------


def enemy_wizard(state, hand):
    state = s.apply(state, "gm", {"type": "enemy", "kind": "wizard", "name": "Morgan", "prime": "w"})
    state["actors"]["e1"]["hand"][:len(hand)] = hand  # the scenario's cards in Morgan's hand
    return state


def test_the_higher_minor_work_wins_against_an_enemy_wizard():
    state = enemy_wizard(table(stacked(ann=["9c"])), ["5p"])
    state = s.apply(state, "gm", {"type": "enemy_cast", "enemy": "e1", "index": 1, "target": "ann"})
    state = cast(state, "ann", 1)
    assert "Nine of Cups (value 9) is the stronger spell" in text_of(state) and "You prevailed." in text_of(state)


def test_a_tie_of_support_combines_under_the_one_prime_caster():
    # Morgan's Wands are Prime (6 + 2 = 8); Ann's Eight of Swords is not Prime for her Cups.
    state = enemy_wizard(table(stacked(ann=["8s"]), prime="c"), ["6w"])
    state = s.apply(state, "gm", {"type": "enemy_cast", "enemy": "e1", "index": 1})
    state = cast(state, "ann", 1)
    assert "A tie of Support: the spells combine into one greater working, held by Morgan." in text_of(state)


def test_a_tie_that_weakens_fizzles_both_and_wounds_both_casters():
    state = enemy_wizard(table(stacked(ann=["8c"]), prime="s"), ["8w"])
    state["actors"]["e1"]["prime"] = "s"
    state = s.apply(state, "gm", {"type": "enemy_cast", "enemy": "e1", "index": 1})
    state = cast(state, "ann", 1)
    assert "A tie that Weakens" in text_of(state)
    assert state["actors"]["ann"]["wounds"] == 1 and state["actors"]["e1"]["wounds"] == 1


def test_a_neutral_tie_goes_to_the_only_prime_work_or_lets_both_pass():
    state = enemy_wizard(table(stacked(ann=["10p"]), prime="c"), ["8w"])
    one = cast(s.apply(state, "gm", {"type": "enemy_cast", "enemy": "e1", "index": 1}), "ann", 1)
    assert "A Neutral tie: Morgan\u2019s Prime Work wins." in text_of(one)
    state["actors"]["e1"]["prime"] = "c"
    state["actors"]["e1"]["hand"][0] = "10w"
    both = cast(s.apply(state, "gm", {"type": "enemy_cast", "enemy": "e1", "index": 1}), "ann", 1)
    assert "both spells take effect and pass each other by" in text_of(both)


def test_a_tie_of_one_suit_fuses_into_a_rampant_major_work():
    state = enemy_wizard(table(stacked(ann=["Pw"]), prime="c"), ["9w"])  # Morgan: 9 + 2 = 11, the Page 11
    state["actors"]["e1"]["prime"] = "c"
    state["actors"]["e1"]["hand"][0] = "Nw"
    state = cast(s.apply(state, "gm", {"type": "enemy_cast", "enemy": "e1", "index": 1}), "ann", 1)
    assert "of value 22 that runs Rampant" in text_of(state) and "Magnum Opus" in text_of(state)


def clash_table(seed):
    state = enemy_wizard(table(stacked(ann=["M3"]), seed=seed), ["M16"])
    return s.apply(state, "gm", {"type": "enemy_cast", "enemy": "e1", "index": 1})


def two_d6(rng):
    return rng.randint(1, 6) + rng.randint(1, 6)


def test_two_major_works_clash_even_gives_the_higher_value_the_win():
    seed = seed_rolling(lambda r: two_d6(r) in (6, 8, 10), clash_table)
    # Ann's Major Work costs her a Wound before the 2d6; that takes no randomness.
    state = cast(clash_table(seed), "ann", 1)
    assert "Even: the higher Major Work, The Tower, wins." in text_of(state)
    assert state["actors"]["ann"]["wounds"] == 1 and state["actors"]["e1"]["wounds"] == 1


def test_two_major_works_clash_odd_gives_the_lower_value_the_win():
    seed = seed_rolling(lambda r: two_d6(r) in (5, 9, 11), clash_table)
    state = cast(clash_table(seed), "ann", 1)
    assert "Odd: the lower Major Work, The Empress, wins." in text_of(state) and "You prevailed." in text_of(state)


@pytest.mark.parametrize("total, check", [
    (12, lambda st: st["actors"]["ann"]["all_prime"]),
    (10, lambda st: st["actors"]["ann"]["choose_prime"]),
    (9, lambda st: st["multiplication"]),
    (7, lambda st: len(st["actors"]["ann"]["hand"]) == 6),
    (6, lambda st: len(st["actors"]["ann"]["hand"]) == 3),
    (4, lambda st: st["actors"]["ann"]["wounds"] == 1),
    (3, lambda st: st["actors"]["ben"]["wounds"] == 1 and st["actors"]["e1"]["wounds"] == 2),
    (2, lambda st: st["reversed_all"]),
])
def test_the_magnum_opus_applies_what_the_site_can_track(total, check):
    state = clash_table(1)  # Morgan has cast The Tower (a Wound); Ann still holds five
    s.magnum_opus(state, total, "ann", "ann")
    assert check(state)


def test_the_magnum_opus_announces_what_is_story_and_reveals_for_conjunction():
    state = clash_table(1)
    top = state["deck"][0]
    s.magnum_opus(state, 8, "ann", "ann")
    s.magnum_opus(state, 11, "ann", "ann")
    assert top in state["discard"] and "Exaltation: an angel of your Prime Aspect" in text_of(state)


def test_congelation_lets_the_winner_choose_another_prime_aspect():
    state = clash_table(1)
    s.magnum_opus(state, 10, "ann", "ann")
    assert "other three" in refused(state, "ann", {"type": "choose_prime", "suit": "s"})
    state = s.apply(state, "ann", {"type": "choose_prime", "suit": "p"})
    assert state["actors"]["ann"]["prime"] == "p" and not state["actors"]["ann"]["choose_prime"]


# --- wounds, rest, scars ------------------------------------------------------------------------


def wounded(n, scars=0):
    state = table(stacked())
    state["actors"]["ann"]["scars"] = scars
    for _ in range(n):
        state = s.apply(state, "gm", {"type": "wound", "target": "ann"})
    return state


def test_three_wounds_incapacitate_and_the_incapacitated_can_neither_roll_nor_cast():
    state = challenge(wounded(3), 5)
    assert state["actors"]["ann"]["incapacitated"]
    assert "Incapacitated" in refused(state, "ann", {"type": "cast", "index": 1})
    assert "Incapacitated" in refused(state, "ann", {"type": "roll"})
    state = s.apply(state, "gm", {"type": "end_scene"})
    assert not state["actors"]["ann"]["incapacitated"] and state["actors"]["ann"]["wounds"] == 3


def test_scars_count_toward_incapacitation():
    assert wounded(1, scars=2)["actors"]["ann"]["incapacitated"]


@pytest.mark.parametrize("wounds, days, words", [(1, 1, "a day"), (2, 7, "a week"), (3, 30, "a month"),
                                                  (4, 30, "a month")])
def test_rest_lasts_as_long_as_the_wounds_ask(wounds, days, words):
    state = wounded(wounds)
    day = state["day"]
    state = s.apply(state, "gm", {"type": "rest", "target": "ann"})
    assert state["day"] == day + days and state["actors"]["ann"]["wounds"] == 0
    assert f"You rested {words}" in text_of(state)
    assert state["actors"]["ann"]["scars"] == (1 if wounds >= 3 else 0)


def test_scars_do_not_lengthen_rest():
    state = wounded(1, scars=1)
    assert s.rest_days(state["actors"]["ann"]["wounds"]) == 1


def test_the_third_scar_kills():
    state = s.apply(wounded(3, scars=2), "gm", {"type": "rest", "target": "ann"})
    ann = state["actors"]["ann"]
    assert ann["scars"] == 3 and ann["dead"] and ann["hand"] == []
    assert "You took a third Scar and died." in text_of(state)
    assert "dead" in refused(state, "ann", {"type": "roll"})


def test_treating_a_wound_without_rest_is_rating_nine_and_a_failure_scars():
    make_seeded = lambda seed: s.apply(  # noqa: E731
        s.apply(table(stacked(), seed=seed), "gm", {"type": "wound", "target": "ann"}),
        "gm", {"type": "challenge", "source": "heal", "patient": "ann"})
    good = seed_rolling(lambda r: r.randint(1, 10) >= 9, make_seeded)
    bad = seed_rolling(lambda r: r.randint(1, 10) < 9, make_seeded)
    healed = s.apply(make_seeded(good), "ben", {"type": "roll"})
    scarred = s.apply(make_seeded(bad), "ben", {"type": "roll"})
    assert (healed["actors"]["ann"]["wounds"], healed["actors"]["ann"]["scars"]) == (0, 0)
    assert (scarred["actors"]["ann"]["wounds"], scarred["actors"]["ann"]["scars"]) == (0, 1)


def test_a_spent_hand_is_redrawn_after_rest_with_the_wounds_cleared():
    state = table(stacked(ann=["2w", "3w", "4w", "5w", "6w"]))
    for _ in range(5):
        state = cast(state, "ann", 1)
    assert state["actors"]["ann"]["hand"] == [] and "Your hand is empty" in text_of(state)
    assert "empty" in refused(state, "ann", {"type": "cast", "index": 1})
    state = s.apply(state, "gm", {"type": "rest", "target": "ann"})
    assert len(state["actors"]["ann"]["hand"]) == 5


# --- enemies ------------------------------------------------------------------------------------


def test_a_supernatural_enemy_is_a_face_down_pile_revealed_one_card_at_a_time():
    state = table(stacked(ann=["Kw", "Qw", "Nw"], top=["5s", "7s", "9s"]))
    assert "1 to 3" in refused(state, "gm", {"type": "enemy", "name": "Wraith", "cards": 4})
    state = s.apply(state, "gm", {"type": "enemy", "name": "Wraith", "cards": 3})
    assert state["enemies"]["e1"]["pile"] == ["5s", "7s", "9s"]
    assert s.view(state, "ann")["enemies"]["e1"]["pile"] is None
    assert s.view(state, "ann")["enemies"]["e1"]["face_down"] == 3
    assert s.view(state, "gm")["enemies"]["e1"]["pile"] == ["5s", "7s", "9s"]
    for n, card in enumerate(["5s", "7s", "9s"]):
        state = s.apply(state, "gm", {"type": "challenge", "source": "enemy", "enemy": "e1"})
        assert state["enemies"]["e1"]["face_up"] == card and s.view(state, "ann")["enemies"]["e1"]["face_down"] == 2 - n
        # Threatened again before it is overcome, the same card stands.
        state = s.apply(state, "gm", {"type": "challenge", "source": "enemy", "enemy": "e1"})
        assert state["enemies"]["e1"]["face_up"] == card
        state = cast(state, "ann", 1)
    assert state["enemies"]["e1"]["defeated"] and "Wraith is defeated." in text_of(state)
    assert "already defeated" in refused(state, "gm", {"type": "challenge", "source": "enemy", "enemy": "e1"})


def test_an_enemy_wizard_has_a_hand_of_five_only_the_gm_sees():
    state = s.apply(table(stacked()), "gm", {"type": "enemy", "kind": "wizard", "name": "Morgan", "prime": "p"})
    assert len(state["actors"]["e1"]["hand"]) == 5
    assert s.view(state, "gm")["actors"]["e1"]["hand"] == state["actors"]["e1"]["hand"]
    assert s.view(state, "ann")["actors"]["e1"]["hand"] is None
    assert "Only the game master" in refused(state, "ann", {"type": "enemy_cast", "enemy": "e1", "index": 1})


# --- advanced workings --------------------------------------------------------------------------


def test_divination_discards_a_card_and_shows_the_top_card_to_the_diviner_alone():
    state = s.apply(table(stacked(ann=["4p"], top=["M17"])), "ann", {"type": "divine", "index": 1})
    assert "4p" in state["discard"] and "The top card of the deck is The Star." in text_of(state, "ann")
    assert "The Star" not in text_of(state, "ben") and "The Star" not in text_of(state, "gm")


def test_meditation_swaps_a_card_once_a_day():
    state = s.apply(table(stacked(ann=["4p"], top=["M17"])), "ann", {"type": "meditate", "index": 1})
    assert "M17" in state["actors"]["ann"]["hand"] and "4p" in state["discard"]
    assert "once a day" in refused(state, "ann", {"type": "meditate", "index": 1})
    state = s.apply(state, "gm", {"type": "new_day"})
    assert len(s.apply(state, "ann", {"type": "meditate", "index": 1})["actors"]["ann"]["hand"]) == 5


def test_ritual_magic_describes_the_spell_and_draws_a_card_before_the_cast():
    state = table(stacked(top=["Aw"]))
    assert "Describe" in refused(state, "ann", {"type": "ritual"})
    state = s.apply(state, "ann", {"type": "ritual", "narration": "A ward around the mill"})
    assert state["actors"]["ann"]["hand"][-1] == "Aw"
    assert "A ward around the mill" in [e.get("narration") for e in state["log"]]


def test_a_group_spread_takes_one_card_each_and_the_highest_minor_never_prime():
    state = challenge(table(stacked(ann=["7s"], ben=["9c"])), 9)
    state = s.apply(state, "ann", {"type": "offer", "index": 1})
    assert "single card" in refused(state, "ann", {"type": "offer", "index": 1})
    assert "at least two" in refused(state, "ann", {"type": "cast_spread"})
    state = s.apply(state, "ben", {"type": "offer", "index": 1})  # Ben's Cups are Prime, not in a spread
    state = s.apply(state, "ann", {"type": "cast_spread"})
    assert "value 9" in text_of(state) and "Value 9 meets rating 9" in text_of(state)
    assert s.cast_cards(state, "ben") == ["9c"]


def test_a_spread_of_majors_only_is_a_major_work_and_wounds_each_contributor():
    state = challenge(table(stacked(ann=["M2"], ben=["M5"])), 15)
    state = s.apply(state, "ann", {"type": "offer", "index": 1})
    state = s.apply(state, "ben", {"type": "offer", "index": 1})
    state = s.apply(state, "ben", {"type": "cast_spread"})
    assert "a Major Work" in text_of(state) and state["challenge"] is None
    assert state["actors"]["ann"]["wounds"] == state["actors"]["ben"]["wounds"] == 1


# --- the end of a session -----------------------------------------------------------------------


def test_an_exhausted_deck_calls_the_session():
    short = stacked(top=["9s", "8s"], rest=False)
    state = table(short)
    assert len(state["deck"]) == 2
    state = s.apply(state, "gm", {"type": "challenge", "source": "deck"})
    assert not state["over"]
    state = s.apply(state, "gm", {"type": "challenge", "source": "deck"})
    assert state["over"] and "The deck ran out" in state["end_reason"]
    assert "over" in refused(state, "ann", {"type": "roll"})


def test_a_deck_emptied_by_a_draw_also_calls_the_session():
    state = table(stacked(top=["9s"], rest=False))
    state = s.apply(state, "ann", {"type": "ritual", "narration": "Call the rain"})
    assert state["over"]


# --- what each one sees, and refusals ------------------------------------------------------------


def test_each_view_shows_only_the_viewers_own_hand():
    state = table(stacked(ann=["Ac"], ben=["Aw"], gm=["Ap"]))
    ann, ben, gm, nobody = (s.view(state, k) for k in ("ann", "ben", "gm", None))
    assert ann["actors"]["ann"]["hand"][0] == "Ac" and ann["actors"]["ben"]["hand"] is None and ann["gm_hand"] is None
    assert ben["actors"]["ann"]["hand"] is None and gm["gm_hand"][0] == "Ap" and gm["actors"]["ann"]["hand"] is None
    hidden = set(state["actors"]["ben"]["hand"] + state["gm_hand"] + state["deck"])
    words = json.dumps(ann)
    assert not [c for c in hidden if f'"{c}"' in words]
    assert nobody["gm_hand"] is None and all(a["hand"] is None for a in nobody["actors"].values())


def test_only_the_gm_sets_challenges_and_bad_numbers_are_refused():
    state = table(stacked())
    assert "Only the game master" in refused(state, "ann", {"type": "challenge", "rating": 3})
    assert "0 to 15" in refused(state, "gm", {"type": "challenge", "source": "rating", "rating": 16})
    assert "1 to 5" in refused(state, "ann", {"type": "cast", "index": 6})
    assert "not something" in refused(state, "ann", {"type": "fly"})
    assert "Only the table" in refused(state, "zed", {"type": "post", "narration": "hi"})
    assert "missing something" in refused(state, "ann", {"type": "cast", "colour": "red"})


def test_the_log_names_people_or_you():
    state = cast(challenge(table(stacked(ann=["7w"])), 3), "ann", 1, narration="A *flare*")
    assert "You cast Seven of Wands" in text_of(state, "ann")
    assert "Ann cast Seven of Wands" in text_of(state, "ben")
    assert "Gail set a challenge of rating 3." in text_of(state, "ben")
    assert "You set a challenge" in text_of(state, "gm")


# --- characters ---------------------------------------------------------------------------------


def test_the_creation_spread_draws_six_different_cards_the_second_upright():
    spread = ch.draw_spread(99)
    assert [p["position"] for p in spread] == list(ch.POSITION_IDS)
    assert len({p["card"] for p in spread}) == 6 and spread[1]["reversed"] is False
    assert ch.draw_spread(99) == spread


def test_a_recorded_physical_spread_is_checked():
    rows = [{"card": c} for c in ["M0", "2c", "3c", "4c", "5c", "6c"]]
    assert ch.recorded_spread(rows)[0]["card"] == "M0"
    with pytest.raises(IllegalMove, match="already in the spread"):
        ch.recorded_spread(rows[:5] + [{"card": "M0"}])
    with pytest.raises(IllegalMove, match="six cards"):
        ch.recorded_spread(rows[:5])
    with pytest.raises(IllegalMove, match="not a card"):
        ch.recorded_spread(rows[:5] + [{"card": "M22"}])
    assert ch.recorded_spread([{"card": "M0"}, {"card": "2c", "reversed": True}] + rows[2:])[1]["reversed"] is False


def test_three_skills_come_from_the_three_positions_that_give_one():
    assert ch.SKILL_POSITIONS == ("origin", "purpose", "means")
    assert ch.clean_skills({"origin": "Latin", "purpose": "Haggling", "means": "Knots"})["means"] == "Knots"
    with pytest.raises(IllegalMove, match="skill"):
        ch.clean_skills({"origin": "Latin", "purpose": "Haggling"})


def test_a_practice_from_the_text_or_ones_own_and_a_prime_aspect():
    assert ch.clean_practice(ch.PRACTICES["Witchcraft"], "p") == (ch.PRACTICES["Witchcraft"], "p")
    assert ch.clean_practice({"s": "Knives", "w": "Sparks", "c": "Tears", "p": "Coins"}, "w")[1] == "w"
    with pytest.raises(IllegalMove, match="Cups"):
        ch.clean_practice({"s": "Knives", "w": "Sparks", "p": "Coins"}, "w")
    with pytest.raises(IllegalMove, match="Prime"):
        ch.clean_practice(ch.PRACTICES["Psychic"], "x")
    assert len(ch.PRACTICES) == 7


def test_the_gm_asks_a_player_to_act_and_acting_answers():
    state = s.apply(table(stacked()), "gm", {"type": "ask", "target": "ann", "narration": "The door creaks."})
    assert state["asked"] == ["ann"] and "Gail asked you to act." in text_of(state)
    state = s.apply(state, "ann", {"type": "post", "narration": "I wait."})
    assert state["asked"] == []


def all_cards(state):
    cards = list(state["deck"]) + state["discard"] + state["gm_hand"] + [o["card"] for o in state["spread"]]
    for actor in state["actors"].values():
        cards += actor["hand"]
    for foe in state["enemies"].values():
        cards += foe["pile"] + ([foe["face_up"]] if foe["face_up"] else [])
    challenge = state["challenge"]
    if challenge and challenge.get("card") and challenge["source"] in ("hand", "deck", "work"):
        cards.append(challenge["card"])
    return cards


def random_move(rng, state):
    who = rng.choice(["gm", "ann", "ben"])
    if who == "gm":
        return who, rng.choice([
            {"type": "challenge", "source": "rating", "rating": rng.randint(0, 15), "target": rng.choice(["ann", "ben"])},
            {"type": "challenge", "source": "hand", "index": rng.randint(1, 7)},
            {"type": "challenge", "source": "deck"},
            {"type": "challenge", "source": "enemy", "enemy": rng.choice(["e1", "e2"])},
            {"type": "challenge", "source": "heal", "patient": rng.choice(["ann", "ben"])},
            {"type": "enemy", "name": "Shade", "cards": rng.randint(1, 3)},
            {"type": "enemy", "kind": "wizard", "name": "Morgan", "prime": rng.choice("swcp")},
            {"type": "enemy_cast", "enemy": rng.choice(["e1", "e2", "e3"]), "index": rng.randint(1, 5)},
            {"type": "let_pass"}, {"type": "clear_challenge"}, {"type": "end_scene"}, {"type": "new_day"},
            {"type": "wound", "target": rng.choice(["ann", "ben"])}, {"type": "rest", "target": rng.choice(["ann", "ben"])},
            {"type": "ask", "target": rng.choice(["ann", "ben"])},
        ])
    return who, rng.choice([
        {"type": "cast", "index": rng.randint(1, 6), "save": rng.random() < 0.2},
        {"type": "roll"}, {"type": "divine", "index": rng.randint(1, 5)}, {"type": "meditate", "index": 1},
        {"type": "ritual", "narration": "A working"}, {"type": "offer", "index": rng.randint(1, 5)},
        {"type": "cast_spread"}, {"type": "post", "narration": "Words"},
        {"type": "choose_prime", "suit": rng.choice("swcp")},
    ])


@pytest.mark.parametrize("seed", range(12))
def test_random_sessions_keep_every_card_once_and_refuse_only_with_words(seed):
    rng = random.Random(seed)
    state = s.new_session(seed, {"ann": dict(name="Ann", prime="s", skills=["x"]), "ben": dict(name="Ben", prime="p")})
    moves = []
    for _ in range(150):
        if state["over"]:
            break
        by, move = random_move(rng, state)
        try:
            state = s.apply(state, by, move)
        except IllegalMove as error:
            assert str(error)
            continue
        moves.append((by, move))
        assert sorted(all_cards(state)) == sorted(DECK)
    start = s.new_session(seed, {"ann": dict(name="Ann", prime="s", skills=["x"]), "ben": dict(name="Ben", prime="p")})
    assert s.replay(start, moves) == state
