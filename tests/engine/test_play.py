"""The terminal player: board as text, numbered legal moves, any registered game."""

from __future__ import annotations

import io
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import RULES, get_rules
from games.engine.cards import CARDS, DECK, label, short_name, value
from games.engine.drawings import render_dream_odyssey, render_starfield
from games.engine.play import main
from games.engine.tree import SPACE_NAMES

from . import starfield_support
from .conftest import strings
from .dream_odyssey_support import hidden_codes as dream_hidden

ROOT = Path(__file__).resolve().parents[2]


def run(argv, typed=""):
    out = io.StringIO()
    code = main(argv, stdin=io.StringIO(typed), out=out)
    return code, out.getvalue()


def test_it_shows_the_board_and_numbers_the_legal_moves():
    code, text = run(["know_thyself", "--deck", "M9,2c,3c,4c", "--seed", "5"], "q\n")
    assert code == 0
    assert "The Tree of Life, top to bottom:" in text
    assert "the Foundation   (empty, open)" in text
    assert "Hand (4): IX The Hermit, 2 of Cups, 3 of Cups, 4 of Cups" in text
    assert "    1. Play IX The Hermit to Splendour" in text
    assert "    4. Play the 2 of Cups onto the left Seeress" in text


def test_a_number_plays_that_move_and_a_json_move_is_refused_in_words():
    typed = "4\n" + '{"type": "play", "card": "M9", "to": "crown"}\n' + "x\nq\n"
    code, text = run(["know_thyself", "--deck", "M9,2c,3c,4c"], typed)
    assert "The 2 of Cups was played onto the left Seeress." in text
    assert "r0    2 of Cups" in text
    assert "Refused: The Crown is not joined by a branch to the root or to an occupied space." in text
    assert "Type 1-" in text


def test_random_moves_play_a_whole_game_to_its_reading():
    code, text = run(["know_thyself", "--seed", "5", "--variant", "numerology", "--auto", "5000"])
    assert code == 0 and "Game over: loss." in text
    assert "The reading:" in text and "The Obstacle:" in text


def test_every_registered_game_can_be_started():
    for slug, rules in RULES.items():
        code, text = run([slug, "--players", str(rules.min_players)], "q\n")
        assert code == 0 and "    1. " in text, slug


def test_a_bad_deck_is_refused_plainly():
    code, text = run(["know_thyself", "--deck", "M9,M9"])
    assert code == 2 and text.startswith("Cannot start: deck must list each of the 78")


def test_it_runs_as_a_module():
    result = subprocess.run([sys.executable, "-m", "games.engine.play", "know_thyself", "--seed", "5"],
                            input="q\n", capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 0 and "Play a card" in result.stdout


# --- the board drawings -----------------------------------------------------------------------
# Each game's drawing is made from ``view(state, seat)`` alone.  Over every step of seeded
# random games, for each seat and a spectator, it must draw without error, name no card the
# view does not name, and, beside the view's own sentences (prompt, tale), name no card that
# lies where the seat cannot see it: the deck, another hand, a face-down stack.

CARD_OF_FORM = {form: c for c in DECK for form in (label(c), short_name(c), CARDS[c].name)}
# A name must stand alone: "The Starfield" does not name The Star.
ALONE = {form: re.compile(rf"(?<!\w){re.escape(form)}(?!\w)") for form in CARD_OF_FORM}


def printed(text: str) -> set[str]:
    """Every card a text names, by any of its names ("XVII The Star", "2 of Cups", "Two of Cups")."""
    return {c for form, c in CARD_OF_FORM.items() if form in text and ALONE[form].search(text)}


def named(view: dict) -> set[str]:
    """Every card a view names: as a code anywhere, or by name in one of its sentences."""
    texts = strings(view)
    return {t for t in texts if t in CARDS} | printed("\n".join(texts))


def hidden_cards(rules):
    """A function of (state, seat) giving the cards that seat (None: a spectator) may not
    know in one game so far; call it on every state of that game in turn.

    Know Thyself hides the deck (and the hand from a spectator); the Starfield games hide
    the deck, the other hand and (Lovers' Discourse) the face-down discard pile, except
    cards once seen face up or held (``starfield_support.Knowledge``, as in their random
    tests); Dream Odyssey hides what ``dream_odyssey_support.hidden_codes`` says."""
    if rules.slug in ("know_thyself", "know_thyself_2021"):  # the 2021 edition hides alike
        def hidden(state: dict, seat: int | None) -> set[str]:
            zones = rules.zones(state)
            return set(zones["deck"]) | (set(zones["hand:0"]) if seat is None else set())
        return hidden
    if rules.slug == "dream_odyssey":
        return dream_hidden
    if rules.slug == "tarot_hallow":
        return tarot_hallow_hidden
    if rules.slug == "hermits_arcana":  # a patience: only Fate and Chance lie face down
        return lambda state, seat: set(rules.zones(state)["deck:fate"]) | set(rules.zones(state)["deck:chance"])
    return starfield_support.Knowledge(rules).hidden


def tarot_hallow_hidden(state: dict, seat: int | None) -> set[str]:
    """Tarot Hallow hides both face-down piles, other seats' hands and their cards played
    face down; last round's reveal was seen by all, even if a reshuffle dealt it again."""
    zones = get_rules("tarot_hallow").zones(state)
    hidden = set(zones["deck"]) | set(zones["majors"])
    for other in range(state["players"]):
        if other != seat:
            hidden |= set(zones[f"hand:{other}"]) | set(zones[f"face_down:{other}"])
    last = state["last_round"]
    return hidden - {c for step in (last["steps"] if last else []) for _s, c in step}


def without_sentences(text: str, view: dict) -> str:
    """The drawing minus the view's own sentences (the prompt, the tale), which the engine
    tests check: what is left is what the drawing itself says."""
    for sentence in sorted((s for s in strings(view) if " " in s), key=len, reverse=True):
        text = text.replace(sentence, "")
    return text


def random_states(rules, seed: int):
    """Every state of one seeded random game (never a forfeit, so games run their course)."""
    rnd = random.Random(seed)
    state = rules.new_game(seed, rules.min_players, {})
    yield state
    while rules.to_act(state):
        seat = rules.to_act(state)[0]
        moves = [m for m in rules.legal_moves(state, seat) if m.get("type") != "forfeit"]
        state = rules.apply(state, seat, rnd.choice(moves))
        yield state


def test_every_registered_game_has_a_board_drawing():
    assert {slug for slug, rules in RULES.items() if rules.text_drawing is not None} == set(RULES)


@pytest.mark.parametrize("slug", sorted(RULES))
def test_the_board_draws_every_step_of_random_games_and_shows_only_what_the_seat_sees(slug):
    rules = RULES[slug]
    steps = 0
    for seed in range(3):
        hidden = hidden_cards(rules)
        for state in random_states(rules, seed):
            for seat in [*range(state["players"]), None]:
                view = rules.view(state, seat)
                text = "\n".join(RULES[slug].text_drawing(view))
                assert text.strip()
                invented = printed(text) - named(view)
                assert not invented, f"seed {seed}, seat {seat}: {sorted(invented)} is not in the view"
                leaked = printed(without_sentences(text, view)) & hidden(state, seat)
                assert not leaked, f"seed {seed}, seat {seat}: hidden {sorted(leaked)} drawn"
            steps += 1
    assert steps > 30


def test_the_peek_check_knows_every_name_of_a_card_and_no_more():
    assert printed("XVII The Star, 2 of Cups and the Two of Swords") == {"M17", "2c", "2s"}
    assert printed("The Starfield: the Gift Field of the Sun, strength 9") == set()


def starfield_after(slug: str, seed: int, wanted) -> dict:
    """The first state of a seeded random game that ``wanted(state)`` accepts."""
    for state in random_states(RULES[slug], seed):
        if wanted(state):
            return state
    raise AssertionError(f"no state of {slug} seed {seed} fits")


def test_the_starfield_is_three_columns_with_c2_in_the_middle_turned_to_each_seat():
    rules = RULES["lovers_discourse"]
    state = rules.new_game(5, 2, {})
    mine = render_starfield(rules.view(state, 0))
    heading = next(line for line in mine if "(emotional)" in line)
    assert heading.split() == ["L", "(emotional)", "C", "(spiritual)", "R", "(intellectual)"]
    centre = next(line for line in mine if "C2*" in line)
    assert centre.index("C2*") == heading.index("C (spiritual)")
    assert "The Starfield: seat 1's edge at the top, yours at the bottom" in mine
    assert [line.split()[0] for line in mine if line.startswith("  L") and line.split()[0][1:].isdigit()] == \
        ["L3", "L2", "L1", "L0"]
    # Seat 1 sits across the table: the same board, turned half a circle.
    theirs = render_starfield(rules.view(state, 1))
    heading = next(line for line in theirs if "(emotional)" in line)
    assert heading.split() == ["R", "(intellectual)", "C", "(spiritual)", "L", "(emotional)"]
    assert "The Starfield: seat 0's edge at the top, yours at the bottom" in theirs
    assert "  Gift Field of the Sun (bottom left, yours to take from): empty" in theirs
    assert "  Gift Field of the Moon (top right, seat 0's to take from): empty" in theirs


def test_a_starfield_space_shows_its_major_minors_fill_and_who_played_it():
    state = starfield_after("lovers_discourse", 5, lambda s: any(e["minors"] for e in s["board"].values()))
    space, entry = next((s, e) for s, e in state["board"].items() if e["minors"])
    text = "\n".join(render_starfield(RULES["lovers_discourse"].view(state, 0)))
    assert f"{space} {label(entry['majors'][0])}" in text
    assert "+ " + short_name(entry["minors"][0]) in text
    total = sum(value(c) for c in entry["minors"])
    assert f"{total}/" in text and "by you" in text or "by seat 1" in text


def test_warring_planets_shows_guards_and_whom_each_space_faces():
    state = starfield_after("warring_planets", 7, lambda s: any("guard" in e for e in s["board"].values()))
    space, entry = next((s, e) for s, e in state["board"].items() if "guard" in e)
    owner = entry["facing"]
    text = "\n".join(render_starfield(RULES["warring_planets"].view(state, owner)))
    assert f"{space} Guard: {short_name(entry['guard'])}" in text
    assert f"worth {value(entry['guard'])}, facing you" in text
    other = "\n".join(render_starfield(RULES["warring_planets"].view(state, 1 - owner)))
    assert f"facing seat {owner}" in other
    assert "Discard pile" not in other or "Discard pile (" in other  # face up in this game


def test_the_starfield_shows_both_planes_the_hand_and_only_counts_of_hidden_piles():
    rules = RULES["lovers_discourse"]
    state = rules.new_game(5, 2, {})
    mine = render_starfield(rules.view(state, 0))
    hand = state["hands"][0]  # three dealt and the first turn's draw
    assert f"Your hand ({len(hand)}): {', '.join(map(card_text_of, hand))}" in mine
    assert "Face down: deck 71, seat 1's hand 3, discard pile 0" in mine
    assert "Your Material Plane (row 0 first):" in mine and "Material Plane of seat 1 (row 0 first):" in mine
    watching = render_starfield(rules.view(state, None))
    assert not any(line.startswith("Your hand") for line in watching)
    assert "Face down: deck 71, seat 0's hand 4, seat 1's hand 3, discard pile 0" in watching


def card_text_of(code: str) -> str:
    return label(code) if code.startswith("M") else short_name(code)


def test_the_dream_odyssey_board_shows_the_tree_the_traveller_and_the_tale():
    rules = RULES["dream_odyssey"]
    state = rules.new_game(3, 1, {})
    view = rules.view(state, 0)
    lines = render_dream_odyssey(view)
    crown = next(line for line in lines if "the Crown" in line and "unreachable" in line)
    assert label(view["world"]["crown"]) in crown and "stack 4, face down" in crown
    assert "Understanding    unreachable (Major face down)" in "\n".join(lines)
    assert ">>the root" in "\n".join(lines)
    assert "  Branches from the root: Splendour, Victory, the Foundation" in lines
    assert f"Hand ({len(view['hand'])}): {', '.join(map(card_text_of, view['hand']))}" in lines
    assert f"Party: {', '.join(map(card_text_of, view['party']))}" in lines
    assert "Wounds (0 of 4): -" in lines
    assert lines[-1] == f"  ~ {view['tale'][-1]}"
    watching = render_dream_odyssey(rules.view(state, None))
    assert f"Hand: {len(view['hand'])} cards" in watching


def test_the_dream_odyssey_board_shows_the_encounter_with_its_cards_and_answers():
    rules = RULES["dream_odyssey"]
    state = next(s for s in random_states(rules, 3)
                 if s["encounter"] and any(slot["pip"] for slot in s["encounter"]["slots"]))
    view = rules.view(state, 0)
    text = "\n".join(render_dream_odyssey(view))
    where = view["encounter"]["space"]
    assert f"Encounter at {SPACE_NAMES[where]}" in text
    slot = next(s for s in view["encounter"]["slots"] if s["pip"])
    assert f"{slot['id']}: {card_text_of(slot['card'])} ({slot['value']}) - {slot['state']}" in text
    assert f"answered by {card_text_of(slot['pip'])}" in text and f"strength {slot['strength']}" in text
    position = next(line for line in text.splitlines() if line.startswith(">>"))
    assert SPACE_NAMES[view["position"]] in position


@pytest.mark.parametrize("slug", ["lovers_discourse", "warring_planets", "dream_odyssey"])
def test_random_moves_play_each_game_to_its_end_with_the_board_and_the_log_in_words(slug):
    code, text = run([slug, "--seed", "3", "--auto", "5000"])
    assert code == 0 and "Game over:" in text and "The reading:" in text
    assert "{'n'" not in text and "'event'" not in text  # log records are told in words
    assert "forfeit" not in text.split("Game over:")[0].lower().replace("forfeits", "")


def test_a_starfield_game_is_played_by_typed_numbers():
    typed = "1\n" * 6 + "q\n"
    code, text = run(["warring_planets", "--seed", "4"], typed)
    assert code == 0
    assert text.count("The Starfield:") == 7 and "Seat 1 to act." in text
    assert "  | seat 0 " in text
