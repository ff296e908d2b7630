"""A session at the tarot wizards table: the shared deck, the hands, casting, dice, wounds.

Pure rules over a JSON state (no Django).  Every draw, shuffle and roll comes from the
table's seed and a counter in the state (``_rng``), and is logged with who caused it, so
a session's record is its starting state plus its acts, and replaying them rebuilds it.

Who is who: ``"gm"`` is the game master; each player character and each enemy wizard is
an *actor* under its own key (the site uses ``"u<user id>"`` and ``"e<n>"``).  Log text
names them as ``{key}`` placeholders, filled per reader (a name, or "you") by ``words``.

Where the text is silent the site's rulings are listed in ``notes.md`` in this folder.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import cards as deck
from games.engine.base import IllegalMove, copy_state

GM = "gm"
HAND_PLAYER = 5
HAND_GM = 7
HAND_ENEMY = 5
MAX_ENEMY_PILE = 3
MAX_RATING = 15
HEAL_RATING = 9
SKILL_BONUS = 2
PRIME_BONUS = 2
WOUNDS_TO_FALL = 3
SCARS_TO_DIE = 3
REST_DAYS = {1: 1, 2: 7, 3: 30}  # wounds (3 or more: 30) -> days of rest
REST_WORDS = {1: "a day", 7: "a week", 30: "a month"}
COURT_SUIT = {"P": "p", "N": "w", "Q": "c", "K": "s"}  # the seat at Court
MAX_NARRATION = 4000

# Elemental dignities of two suits tied in value.
SUPPORT = ({"w", "s"}, {"c", "p"})
WEAKEN = ({"w", "c"}, {"s", "p"})
NEUTRAL = ({"w", "p"}, {"s", "c"})

MAGNUM_OPUS = {
    12: ("Projection", "{whose} Minor Works are all Prime Works for the rest of the session"),
    11: ("Exaltation", "an angel of {whose} Prime Aspect comes to deliver the spell and stays to the end of the scene"),
    10: ("Congelation", "{whose} choice of another Aspect becomes Prime until the end of the session"),
    9: ("Multiplication", "until the end of the scene a Minor may be played as any Minor already played and resolved in it"),
    8: ("Conjunction", "the top card of the deck is revealed"),
    7: ("Cibation", "one more card for {who}"),
    6: ("Dissolution", "{whose} hand is discarded and three cards drawn in its place"),
    5: ("Calcination", "the spell sets everything it touches alight, even what no fire can burn"),
    4: ("Separation", "a Wound for {who}, and the spell runs Rampant"),
    3: ("Putrefaction", "everything near withers and rots: everyone in the scene takes a Wound"),
    2: ("Sublimation", "every card is played reversed for the rest of the session"),
}


# --- cards --------------------------------------------------------------------------------


def card_value(card: str) -> int:
    """A card's value at this table: pips their number, courts 11, Aces 12, Majors their number."""
    if deck.is_major(card):
        return deck.major_number(card)
    rank = deck.rank_of(card)
    if rank == "A":
        return 12
    if rank in COURT_SUIT:
        return 11
    return int(rank)


def suits_of(card: str) -> set[str]:
    """The printed suit, and for a court card also the suit of its seat at Court."""
    if deck.is_major(card):
        return set()
    rank = deck.rank_of(card)
    return {deck.suit_of(card)} | ({COURT_SUIT[rank]} if rank in COURT_SUIT else set())


def dignity(suit_a: str, suit_b: str) -> str:
    if suit_a == suit_b:
        return "strengthen"
    pair = {suit_a, suit_b}
    if pair in SUPPORT:
        return "support"
    if pair in WEAKEN:
        return "weaken"
    return "neutral"


# --- randomness ---------------------------------------------------------------------------


def _rng(state: dict, by: str, what: str) -> random.Random:
    """A fresh generator for the next random event, recorded with who caused it."""
    n = state["counter"]
    state["counter"] = n + 1
    state["randomness"].append({"n": n, "by": by, "what": what})
    return random.Random(f"{state['seed']}:{n}")


def roll(state: dict, by: str, dice: int, sides: int, why: str) -> list[int]:
    rng = _rng(state, by, f"{dice}d{sides}")
    result = [rng.randint(1, sides) for _ in range(dice)]
    state["randomness"][-1]["result"] = result
    say(state, by, "roll", f"{{{by}}} rolled {dice}d{sides} for {why}: " + " + ".join(map(str, result))
        + (f" = {sum(result)}" if dice > 1 else "") + ".")
    return result


def shuffled_deck(state: dict, by: str) -> list[str]:
    rng = _rng(state, by, "shuffle")
    cards = list(deck.DECK)
    rng.shuffle(cards)
    return cards


def draw(state: dict, who: str, n: int, hand: list[str] | None = None) -> list[str]:
    """Draw ``n`` cards from the top for ``who`` into ``hand`` (theirs by default).

    The draw itself is logged publicly (how many); the cards only to the one who drew."""
    hand = hand if hand is not None else hand_of(state, who)
    got = state["deck"][:n]
    del state["deck"][:n]
    hand.extend(got)
    state["randomness"].append({"n": None, "by": who, "what": f"draw {len(got)}"})
    if got:
        say(state, who, "draw", f"{{{who}}} drew {_count(len(got))}.", hide_from=who)
        say(state, who, "draw", f"{{{who}}} drew " + _card_list(got) + ".", to=who)
    if len(got) < n:
        say(state, who, "deck", "The deck ran out of cards.")
    return got


def _count(n: int) -> str:
    return "a card" if n == 1 else f"{n} cards"


def _card_list(cards: list[str]) -> str:
    return ", ".join(deck.name(c) for c in cards)


# --- the state ----------------------------------------------------------------------------


def new_actor(*, name: str, prime: str | None, practice: dict | None = None, skills: list[str] | None = None,
              wounds: int = 0, scars: int = 0, kind: str = "player") -> dict:
    return {"name": name, "kind": kind, "hand": [], "wounds": wounds, "scars": scars, "prime": prime,
            "practice": dict(practice or {}), "skills": list(skills or []), "incapacitated": False,
            "dead": scars >= SCARS_TO_DIE, "all_prime": False, "choose_prime": False, "meditated_on": None}


def new_session(seed: int, players: dict[str, dict], *, deck_order: list[str] | None = None,
                gm_name: str = "the game master") -> dict:
    """Shuffle the shared deck (or lay ``deck_order`` as given, top first), deal five to
    each living player in order and seven to the GM.  ``players`` maps keys to
    ``new_actor`` dicts (or their keyword arguments)."""
    state: dict[str, Any] = {
        "seed": seed, "counter": 0, "randomness": [], "log": [], "deck": [], "discard": [],
        "gm_name": gm_name, "gm_hand": [], "actors": {}, "enemies": {}, "challenge": None,
        "spread": [], "scene": 1, "day": 1, "reversed_all": False, "multiplication": False,
        "over": False, "end_reason": "", "cast": {}, "acts": 0, "asked": [],
    }
    for key, actor in players.items():
        state["actors"][key] = actor if "hand" in actor else new_actor(**actor)
    if deck_order is not None:
        if sorted(deck_order) != sorted(set(deck_order)) or not all(deck.is_card(c) for c in deck_order):
            raise IllegalMove("A stacked deck holds each card at most once.")
        state["deck"] = list(deck_order)
        state["randomness"].append({"n": None, "by": GM, "what": "deck laid in a given order"})
    else:
        state["deck"] = shuffled_deck(state, GM)
    say(state, GM, "start", "The session begins: the deck is shuffled.")
    for key, actor in state["actors"].items():
        if not actor["dead"]:
            draw(state, key, HAND_PLAYER)
    draw(state, GM, HAND_GM)
    _check_deck(state)
    return state


def hand_of(state: dict, who: str) -> list[str]:
    if who == GM:
        return state["gm_hand"]
    return state["actors"][who]["hand"]


def say(state: dict, by: str, kind: str, text: str, *, to: str | None = None, narration: str = "",
        cards: list[str] | None = None, hide_from: str | None = None) -> None:
    """Log a line: for everyone, only for ``to``, or for everyone but ``hide_from`` (who
    reads a fuller private line instead)."""
    entry = {"n": len(state["log"]), "by": by, "kind": kind, "text": text}
    if to is not None:
        entry["to"] = to
    if hide_from is not None:
        entry["not_to"] = hide_from
    if narration:
        entry["narration"] = narration
    if cards:
        entry["cards"] = list(cards)
    state["log"].append(entry)


def _check_deck(state: dict) -> None:
    if not state["over"] and not state["deck"]:
        state["over"] = True
        state["end_reason"] = "The deck ran out: magic itself is strained to breaking, and the session is called."
        say(state, GM, "end", state["end_reason"])


# --- wounds -------------------------------------------------------------------------------


def wound(state: dict, key: str, why: str) -> None:
    actor = state["actors"][key]
    if actor["dead"]:
        return
    actor["wounds"] += 1
    say(state, key, "wound", f"{{{key}}} took a Wound ({why}).")
    if actor["wounds"] + actor["scars"] >= WOUNDS_TO_FALL and not actor["incapacitated"]:
        actor["incapacitated"] = True
        say(state, key, "incapacitated", f"{{{key}}} fell Incapacitated until the end of the scene.")


def scar(state: dict, key: str, why: str) -> None:
    actor = state["actors"][key]
    actor["scars"] += 1
    say(state, key, "scar", f"{{{key}}} gained a new Scar ({why}); Scars: {actor['scars']}.")
    if actor["scars"] >= SCARS_TO_DIE:
        actor["dead"] = True
        actor["incapacitated"] = True
        state["discard"].extend(actor["hand"])
        actor["hand"] = []
        say(state, key, "death", f"{{{key}}} took a third Scar and died.")


def rest_days(wounds: int) -> int:
    return REST_DAYS[min(wounds, 3)] if wounds else 1


# --- checks -------------------------------------------------------------------------------


def _live(state: dict) -> None:
    if state["over"]:
        raise IllegalMove("This session is over.")


def _actor(state: dict, key: str) -> dict:
    if key not in state["actors"]:
        raise IllegalMove("There is no such character at this table.")
    return state["actors"][key]


def _able(state: dict, key: str) -> dict:
    actor = _actor(state, key)
    if actor["dead"]:
        raise IllegalMove(f"{actor['name']} is dead.")
    if actor["incapacitated"]:
        raise IllegalMove(f"{actor['name']} is Incapacitated until the end of the scene.")
    return actor


def _take(state: dict, who: str, index: Any) -> str:
    hand = hand_of(state, who)
    if not hand:
        raise IllegalMove("That hand is empty: its magic is spent until it is refilled.")
    if not isinstance(index, int) or isinstance(index, bool) or not 1 <= index <= len(hand):
        raise IllegalMove(f"Choose a card by its number in the hand, 1 to {len(hand)}.")
    return hand.pop(index - 1)


def _narration(text: Any) -> str:
    text = str(text or "").strip()
    if len(text) > MAX_NARRATION:
        raise IllegalMove(f"Narration is at most {MAX_NARRATION} characters.")
    return text


def _gm_refill(state: dict) -> None:
    if not state["gm_hand"]:
        draw(state, GM, HAND_GM)


# --- works --------------------------------------------------------------------------------


def work_of(state: dict, key: str, card: str, *, skill: bool = False) -> dict:
    """A cast spell's standing: Major or Minor, its value (+2 if Prime) and its suit."""
    actor = state["actors"].get(key) or {}
    if deck.is_major(card):
        return {"by": key, "card": card, "major": True, "value": card_value(card), "prime": False, "suit": None,
                "skill": skill}
    prime = actor.get("all_prime") or (actor.get("prime") in suits_of(card))
    return {"by": key, "card": card, "major": False, "prime": bool(prime), "suit": deck.suit_of(card),
            "value": card_value(card) + (PRIME_BONUS if prime else 0), "skill": skill}


def _describe(work: dict) -> str:
    words = deck.name(work["card"])
    if work["major"]:
        return f"{words} (a Major Work)"
    return f"{words} ({'a Prime Work, ' if work['prime'] else ''}value {work['value']})"


def opus_roll(state: dict, by: str) -> int:
    return sum(roll(state, by, 2, 6, "the Magnum Opus"))


def magnum_opus(state: dict, total: int, winner: str | None, by: str) -> None:
    """Apply the Magnum Opus result ``total`` to ``winner``: what the site can track is
    done, the rest is announced for the story."""
    title, words = MAGNUM_OPUS[total]
    who = f"{{{winner}}}" if winner and winner != GM else "the caster"
    whose = f"{{{winner}:s}}" if winner and winner != GM else "the caster's"
    say(state, by, "opus", f"Magnum Opus {total}, {title}: " + words.format(who=who, whose=whose) + ".")
    actor = state["actors"].get(winner) if winner else None
    if total == 12 and actor:
        actor["all_prime"] = True
    elif total == 10 and actor:
        actor["choose_prime"] = True
    elif total == 9:
        state["multiplication"] = True
    elif total == 8:
        if state["deck"]:
            card = state["deck"].pop(0)
            state["discard"].append(card)
            say(state, by, "reveal", f"The top card of the deck is revealed: {deck.name(card)}.", cards=[card])
    elif total == 7 and winner:
        draw(state, winner, 1, hand_of(state, winner))
    elif total == 6 and winner:
        hand = hand_of(state, winner)
        state["discard"].extend(hand)
        if hand:
            say(state, winner, "discard", f"{{{winner}}} discarded " + _card_list(hand) + ".", cards=hand)
        hand.clear()
        draw(state, winner, 3, hand)
    elif total == 4 and actor:
        wound(state, winner, "Separation")
    elif total == 3:
        for key, other in state["actors"].items():
            if not other["dead"]:
                wound(state, key, "Putrefaction")
    elif total == 2:
        state["reversed_all"] = True


def clash(state: dict, a: dict, b: dict, by: str) -> str | None:
    """Two Major Works: even 2d6, the higher wins; odd, the lower.  The winner's key."""
    if a["value"] == b["value"]:
        higher = lower = None
    else:
        higher, lower = (a, b) if a["value"] > b["value"] else (b, a)
    total = opus_roll(state, by)
    winner = (higher if total % 2 == 0 else lower) if higher else None
    # The result takes effect before the work resolves, and befalls the winner's caster.
    magnum_opus(state, total, winner["by"] if winner else None, by)
    if winner is None:
        say(state, by, "clash", "Two equal Major Works cancel each other: both fizzle.")
        return None
    say(state, by, "clash", f"{'Even' if total % 2 == 0 else 'Odd'}: the {'higher' if total % 2 == 0 else 'lower'} "
        f"Major Work, {deck.name(winner['card'])}, wins.")
    return winner["by"]


def oppose(state: dict, a: dict, b: dict, by: str) -> dict:
    """Two works against each other.  Returns {"winner": key or None, "how": ...}."""
    if a["major"] and b["major"]:
        return {"winner": clash(state, a, b, by), "how": "clash"}
    if a["major"] or b["major"]:
        major = a if a["major"] else b
        say(state, by, "result", f"The Major Work {deck.name(major['card'])} surmounts the Minor Work.")
        return {"winner": major["by"], "how": "major"}
    if a["value"] != b["value"]:
        high = a if a["value"] > b["value"] else b
        say(state, by, "result", f"{_describe(high)} is the stronger spell and wins out.")
        return {"winner": high["by"], "how": "higher"}
    kind = dignity(a["suit"], b["suit"])
    primes = [w for w in (a, b) if w["prime"]]
    if kind == "support":
        control = primes[0]["by"] if len(primes) == 1 else None
        say(state, by, "dignity", "A tie of Support: the spells combine into one greater working, "
            + (f"held by {{{control}}}." if control else "which no one controls."))
        return {"winner": control, "how": "support"}
    if kind == "weaken":
        say(state, by, "dignity", "A tie that Weakens: both spells fizzle and hurt their casters.")
        for w in (a, b):
            if w["by"] in state["actors"]:
                wound(state, w["by"], "a counterspell")
        return {"winner": None, "how": "weaken"}
    if kind == "neutral":
        if len(primes) == 1:
            say(state, by, "dignity", f"A Neutral tie: {{{primes[0]['by']}:s}} Prime Work wins.")
            return {"winner": primes[0]["by"], "how": "neutral"}
        say(state, by, "dignity", "A Neutral tie: both spells take effect and pass each other by.")
        return {"winner": None, "how": "neutral-both"}
    say(state, by, "dignity", "A tie of one suit Strengthens: the spells fuse into a Major Work of value "
        f"{a['value'] + b['value']} that runs Rampant.")
    magnum_opus(state, opus_roll(state, by), None, by)
    return {"winner": None, "how": "strengthen"}


# --- acts ---------------------------------------------------------------------------------

ACTS = {}


def act(name: str, gm_only: bool = False):
    def register(fn):
        ACTS[name] = (fn, gm_only)
        return fn
    return register


def apply(state: dict, by: str, move: dict) -> dict:
    """The state after ``by`` does ``move`` ({"type": ..., ...}); the caller's state is left
    alone, and an illegal move raises ``IllegalMove`` with words for a person."""
    if not isinstance(move, dict) or move.get("type") not in ACTS:
        raise IllegalMove("That is not something one can do at this table.")
    fn, gm_only = ACTS[move["type"]]
    if gm_only and by != GM:
        raise IllegalMove("Only the game master can do that.")
    if by != GM and by not in state["actors"]:
        raise IllegalMove("Only the table's game master and players can act here.")
    _live(state)
    new = copy_state(state)
    params = {k: v for k, v in move.items() if k != "type"}
    try:
        fn(new, by, **params)
    except TypeError:
        raise IllegalMove("That act is missing something or has something it does not take.") from None
    new["acts"] += 1
    if by in new["asked"] and move["type"] != "choose_prime":
        new["asked"].remove(by)  # whatever they did answers the GM's call
    _check_deck(new)
    return new


def replay(start: dict, moves: list[tuple[str, dict]]) -> dict:
    state = start
    for by, move in moves:
        state = apply(state, by, move)
    return state


@act("post")
def _post(state, by, narration=""):
    text = _narration(narration)
    if not text:
        raise IllegalMove("Write something to post.")
    say(state, by, "post", f"{{{by}}} wrote:", narration=text)


@act("challenge", gm_only=True)
def _challenge(state, by, source="rating", rating=None, index=None, enemy=None, target=None, purpose="",
               patient=None, narration=""):
    """Set the challenge now faced: a rating the GM names, a card from the GM's hand, the
    top card of the deck, or the next card of a supernatural enemy's pile."""
    text = _narration(narration)
    if target is not None:
        _actor(state, target)
    if patient is not None:
        _actor(state, patient)
    _clear_after(state)
    challenge = {"source": source, "card": None, "rating": None, "major": False, "enemy": None,
                 "target": target, "purpose": "heal" if purpose == "heal" else "", "patient": patient}
    if source == "rating":
        if not isinstance(rating, int) or isinstance(rating, bool) or not 0 <= rating <= MAX_RATING:
            raise IllegalMove(f"A challenge's rating is a whole number from 0 to {MAX_RATING}.")
        challenge["rating"] = rating
        what = f"a challenge of rating {rating}"
    elif source == "heal":
        challenge.update(rating=HEAL_RATING, purpose="heal")
        if patient is None:
            raise IllegalMove("Say whose Wound is being treated.")
        what = f"a rating {HEAL_RATING} challenge to treat {{{patient}:s}} Wound without rest"
    elif source in ("hand", "deck"):
        if source == "hand":
            card = _take(state, GM, index)
            state["cast"].setdefault(GM, []).append(card)
        else:
            if not state["deck"]:
                raise IllegalMove("The deck is empty.")
            card = state["deck"].pop(0)
            _rng_note(state, by, "top card of the deck for a challenge")
        challenge.update(card=card, major=deck.is_major(card), rating=None if deck.is_major(card) else card_value(card))
        whence = "the game master's hand" if source == "hand" else "the top of the deck"
        what = (f"{deck.name(card)} from {whence}: "
                + ("a Major challenge only a Major Work can meet" if deck.is_major(card)
                   else f"rating {card_value(card)}"))
        _gm_refill(state)
    elif source == "enemy":
        foe = _enemy(state, enemy)
        if foe["kind"] != "supernatural":
            raise IllegalMove("Only a supernatural enemy has a pile to reveal.")
        if foe["defeated"]:
            raise IllegalMove(f"{foe['name']} is already defeated.")
        if foe["face_up"] is None:
            foe["face_up"] = foe["pile"].pop(0)
            say(state, by, "reveal", f"{foe['name']} reveals {deck.name(foe['face_up'])}.", cards=[foe["face_up"]])
        card = foe["face_up"]
        challenge.update(card=card, enemy=enemy, major=deck.is_major(card),
                         rating=None if deck.is_major(card) else card_value(card))
        what = f"{foe['name']}: {deck.name(card)}" + ("" if deck.is_major(card) else f", rating {card_value(card)}")
    else:
        raise IllegalMove("A challenge comes from a rating, the GM's hand, the deck or an enemy's pile.")
    state["challenge"] = challenge
    say(state, by, "challenge", "{gm} set " + what + (
        f", facing {{{target}}}" if target else "") + ".", narration=text, cards=[challenge["card"]] if challenge["card"] else None)


def _rng_note(state, by, what):
    state["randomness"].append({"n": None, "by": by, "what": what})


def _enemy(state, eid) -> dict:
    if eid not in state["enemies"]:
        raise IllegalMove("There is no such enemy in this session.")
    return state["enemies"][eid]


@act("clear_challenge", gm_only=True)
def _clear(state, by, narration=""):
    if state["challenge"] is None:
        raise IllegalMove("No challenge is set.")
    _clear_after(state)
    say(state, by, "challenge", "{gm} set the challenge aside.", narration=_narration(narration))


def _skill_ok(actor: dict, skill: Any) -> bool:
    if not skill:
        return False
    if skill not in actor["skills"]:
        raise IllegalMove("That skill is not on the character's sheet.")
    return True


def _overcome(state, by):
    """The current challenge is met: a heal works, an enemy loses its face-up card."""
    challenge = state["challenge"]
    state["challenge"] = None
    if challenge is None:
        return
    if challenge["purpose"] == "heal" and challenge["patient"]:
        patient = state["actors"][challenge["patient"]]
        if patient["wounds"]:
            patient["wounds"] -= 1
            say(state, by, "heal", f"{{{challenge['patient']}:s}} Wound is treated and closes.")
        _recover(state, challenge["patient"])
    if challenge["enemy"]:
        foe = state["enemies"][challenge["enemy"]]
        foe["overcome"].append(foe["face_up"])
        state["discard"].append(foe["face_up"])
        foe["face_up"] = None
        if not foe["pile"]:
            foe["defeated"] = True
            say(state, by, "defeat", f"{foe['name']} is defeated.")
        else:
            say(state, by, "overcome", f"One card of {foe['name']} is overcome; {_count(len(foe['pile']))} "
                "still lie face down.")
    elif challenge["card"]:
        state["discard"].append(challenge["card"])


def _recover(state, key):
    actor = state["actors"][key]
    if actor["incapacitated"] and actor["wounds"] + actor["scars"] < WOUNDS_TO_FALL:
        actor["incapacitated"] = False


def _failed(state, by):
    challenge = state["challenge"]
    if challenge and challenge["purpose"] == "heal" and challenge["patient"]:
        patient = state["actors"][challenge["patient"]]
        if patient["wounds"]:
            patient["wounds"] -= 1
            scar(state, challenge["patient"], "a Wound treated without rest that would not close")
        _clear_after(state)


def _clear_after(state):
    challenge = state["challenge"]
    # A card played for the challenge goes to the discard; an enemy's face-up card stays.
    if challenge and challenge.get("card") and challenge["source"] in ("hand", "deck", "work"):
        state["discard"].append(challenge["card"])
    state["challenge"] = None


@act("roll")
def _roll(state, by, skill="", narration=""):
    """A mundane effort: 1d10 against the challenge's rating (less 2 with a relevant skill)."""
    actor = _able(state, by)
    challenge = state["challenge"]
    if challenge is None:
        raise IllegalMove("There is no challenge to roll against yet: the GM sets one first.")
    with_skill = _skill_ok(actor, skill)
    text = _narration(narration)
    (die,) = roll(state, by, 1, 10, "a mundane effort")
    if challenge["major"]:
        say(state, by, "result", "No mundane effort meets a Major challenge: it fails.", narration=text)
        challenge["failed_roll"] = by
        _failed(state, by)
        return
    rating = challenge["rating"] - (SKILL_BONUS if with_skill else 0)
    if die >= rating:
        say(state, by, "result", f"{die} meets rating {rating}" + (" (with a skill)" if with_skill else "")
            + f": {{{by}}} succeeded.", narration=text)
        _overcome(state, by)
    else:
        say(state, by, "result", f"{die} falls short of rating {rating}: {{{by}}} failed, and the GM tells what "
            "follows (a Wound can buy a spell to save the day).", narration=text)
        challenge["failed_roll"] = by
        _failed(state, by)


@act("cast")
def _cast(state, by, index=None, skill="", save=False, narration=""):
    """Cast a spell: play a card from the hand against the challenge (or freely)."""
    actor = _able(state, by)
    with_skill = _skill_ok(actor, skill)
    text = _narration(narration)
    if save:
        challenge = state["challenge"]
        if not challenge or challenge.get("failed_roll") != by:
            raise IllegalMove("A Wound buys a saving spell only right after a failed roll.")
        wound(state, by, "a spell cast to save a failed effort")
        if actor["incapacitated"]:
            return
    card = _take(state, by, index)
    work = work_of(state, by, card, skill=with_skill)
    state["cast"].setdefault(by, []).append(card)
    reversed_note = " (reversed)" if state["reversed_all"] else ""
    say(state, by, "cast", f"{{{by}}} cast {_describe(work)}{reversed_note}.", narration=text, cards=[card])
    if work["major"]:
        wound(state, by, "the price of a Major Work")
    _resolve(state, by, work)
    state["discard"].append(card)
    if not actor["hand"] and not actor["dead"]:
        say(state, by, "spent", f"{{{by}:s}} hand is empty: the magic is spent until rest or the next session.")


def _resolve(state, by, work):
    challenge = state["challenge"]
    if challenge is None:
        say(state, by, "result", "The spell takes effect: nothing stands against it.")
        return
    if challenge.get("work"):
        other = challenge["work"]
        result = oppose(state, other, work, by)
        state["challenge"] = None
        state["discard"].append(other["card"])
        if result["winner"] == by:
            say(state, by, "result", f"{{{by}}} prevailed.")
        return
    if challenge["major"]:
        if work["major"]:
            gm_work = {"by": challenge.get("enemy") or GM, "card": challenge["card"], "major": True,
                       "value": card_value(challenge["card"]), "prime": False, "suit": None}
            winner = clash(state, gm_work, work, by)
            if winner == by:
                say(state, by, "result", f"{{{by}}} overcame the challenge.")
                _overcome(state, by)
            else:
                say(state, by, "result", f"The challenge holds against {{{by}}}.")
        else:
            say(state, by, "result", "A Minor Work cannot meet a Major challenge: the spell fails.")
            _failed(state, by)
        return
    if work["major"]:
        say(state, by, "result", f"The Major Work sweeps the challenge aside: {{{by}}} succeeded.")
        _overcome(state, by)
        return
    rating = challenge["rating"] - (SKILL_BONUS if work["skill"] else 0)
    if work["value"] >= rating:
        say(state, by, "result", f"Value {work['value']} meets rating {rating}"
            + (" (with a skill)" if work["skill"] else "") + f": {{{by}}} succeeded.")
        _overcome(state, by)
    else:
        say(state, by, "result", f"Value {work['value']} falls short of rating {rating}: {{{by}}} failed.")
        _failed(state, by)


@act("enemy_cast", gm_only=True)
def _enemy_cast(state, by, enemy=None, index=None, target=None, narration=""):
    """An enemy wizard casts from their hand; a player may oppose it with a spell."""
    foe = _enemy(state, enemy)
    if foe["kind"] != "wizard":
        raise IllegalMove("Only an enemy wizard casts from a hand.")
    actor = _able(state, enemy)
    card = _take(state, enemy, index)
    work = work_of(state, enemy, card)
    _clear_after(state)
    state["challenge"] = {"source": "work", "card": card, "rating": None, "major": work["major"], "enemy": None,
                          "target": target, "purpose": "", "patient": None, "work": work}
    say(state, by, "cast", f"{actor['name']} cast {_describe(work)}"
        + (f" against {{{target}}}" if target else "") + ".", narration=_narration(narration), cards=[card])
    if work["major"]:
        wound(state, enemy, "the price of a Major Work")


@act("let_pass", gm_only=True)
def _let_pass(state, by, narration=""):
    """An enemy's spell goes unopposed: it takes effect."""
    challenge = state["challenge"]
    if not challenge or not challenge.get("work"):
        raise IllegalMove("No enemy spell is waiting.")
    state["discard"].append(challenge["card"])
    state["challenge"] = None
    say(state, by, "result", "The enemy's spell takes effect unopposed.", narration=_narration(narration))


@act("enemy", gm_only=True)
def _add_enemy(state, by, name="", kind="supernatural", cards=None, practice=None, prime=None):
    """Bring in an enemy: a supernatural one as a face-down pile of up to three cards from
    the deck, or an enemy wizard with a hand of five."""
    name = str(name or "").strip()[:80]
    if not name:
        raise IllegalMove("Name the enemy.")
    eid = f"e{len(state['enemies']) + 1}"
    if kind == "supernatural":
        if not isinstance(cards, int) or isinstance(cards, bool) or not 1 <= cards <= MAX_ENEMY_PILE:
            raise IllegalMove(f"A supernatural enemy is a pile of 1 to {MAX_ENEMY_PILE} cards.")
        pile = []
        draw(state, GM, cards, pile)
        state["enemies"][eid] = {"name": name, "kind": kind, "pile": pile, "face_up": None, "overcome": [],
                                 "defeated": False}
        say(state, by, "enemy", f"{name} appears: a pile of {_count(len(pile))} face down.")
    elif kind == "wizard":
        if prime is not None and prime not in ("s", "w", "c", "p"):
            raise IllegalMove("An enemy wizard's Prime Aspect is one of the four suits.")
        state["actors"][eid] = new_actor(name=name, prime=prime, practice=practice or {}, kind="enemy")
        state["enemies"][eid] = {"name": name, "kind": kind, "pile": [], "face_up": None, "overcome": [],
                                 "defeated": False}
        draw(state, GM, HAND_ENEMY, state["actors"][eid]["hand"])
        say(state, by, "enemy", f"{name}, an enemy wizard, appears.")
    else:
        raise IllegalMove("An enemy is supernatural or a wizard.")


@act("wound", gm_only=True)
def _wound(state, by, target=None, narration=""):
    _actor(state, target)
    wound(state, target, _narration(narration) or "the game master's call")


@act("end_scene", gm_only=True)
def _end_scene(state, by, narration=""):
    """A scene ends: the Incapacitated get up, scene-long effects fade."""
    state["scene"] += 1
    state["multiplication"] = False
    for actor in state["actors"].values():
        if not actor["dead"]:
            actor["incapacitated"] = False
    _clear_after(state)
    say(state, by, "scene", f"Scene {state['scene'] - 1} ends; scene {state['scene']} begins.",
        narration=_narration(narration))


@act("rest", gm_only=True)
def _rest(state, by, target=None, narration=""):
    """A character rests as long as their Wounds ask (a day, a week, a month); three or more
    Wounds leave a Scar.  Rested and healed, a character whose magic was spent draws five."""
    actor = _actor(state, target)
    if actor["dead"]:
        raise IllegalMove(f"{actor['name']} is dead.")
    days = rest_days(actor["wounds"])
    heavy = actor["wounds"] >= 3
    actor["wounds"] = 0
    state["day"] += days
    say(state, by, "rest", f"{{{target}}} rested {REST_WORDS[days]} and the Wounds are cleared.",
        narration=_narration(narration))
    if heavy:
        scar(state, target, "one Wound of three or more became permanent")
    if actor["dead"]:
        return
    actor["incapacitated"] = actor["wounds"] + actor["scars"] >= WOUNDS_TO_FALL and actor["incapacitated"]
    if not actor["hand"]:
        draw(state, target, HAND_PLAYER)


@act("divine")
def _divine(state, by, index=None, narration=""):
    """An hour's preparation: discard a card and look at the top card of the deck."""
    _able(state, by)
    card = _take(state, by, index)
    state["discard"].append(card)
    say(state, by, "divine", f"{{{by}}} discarded {deck.name(card)} to divine.", narration=_narration(narration),
        cards=[card])
    if state["deck"]:
        say(state, by, "divine", f"The top card of the deck is {deck.name(state['deck'][0])}.", to=by)


@act("meditate")
def _meditate(state, by, index=None, narration=""):
    """An evening's meditation, once a day: discard a card, draw its replacement."""
    actor = _able(state, by)
    if actor["meditated_on"] == state["day"]:
        raise IllegalMove("One may meditate so only once a day.")
    card = _take(state, by, index)
    state["discard"].append(card)
    actor["meditated_on"] = state["day"]
    say(state, by, "meditate", f"{{{by}}} meditated and let go of {deck.name(card)}.",
        narration=_narration(narration), cards=[card])
    draw(state, by, 1)


@act("ritual")
def _ritual(state, by, narration=""):
    """A night of ritual: say the spell being prepared, draw a card; then cast as usual."""
    _able(state, by)
    text = _narration(narration)
    if not text:
        raise IllegalMove("Describe the spell the ritual prepares.")
    say(state, by, "ritual", f"{{{by}}} worked Ritual Magic through the night.", narration=text)
    draw(state, by, 1)


@act("new_day", gm_only=True)
def _new_day(state, by, narration=""):
    state["day"] += 1
    say(state, by, "day", "A new day dawns.", narration=_narration(narration))


@act("choose_prime")
def _choose_prime(state, by, suit=None):
    actor = _actor(state, by)
    if not actor["choose_prime"]:
        raise IllegalMove("Only Congelation lets one choose a new Prime Aspect.")
    if suit not in ("s", "w", "c", "p") or suit == actor["prime"]:
        raise IllegalMove("Choose one of the other three Aspects.")
    actor["prime"], actor["choose_prime"] = suit, False
    say(state, by, "prime", f"{{{by}}} made {actor['practice'].get(suit) or deck.SUIT_NAMES[suit]} "
        "Prime until the end of the session.")


@act("offer")
def _offer(state, by, index=None, narration=""):
    """Put one card into a group spread (one card per wizard)."""
    _able(state, by)
    if any(o["by"] == by for o in state["spread"]):
        raise IllegalMove("Each wizard adds a single card to a spread.")
    card = _take(state, by, index)
    state["spread"].append({"by": by, "card": card})
    state["cast"].setdefault(by, []).append(card)
    say(state, by, "offer", f"{{{by}}} laid {deck.name(card)} in the group spread.", narration=_narration(narration),
        cards=[card])


@act("cast_spread")
def _cast_spread(state, by, skill="", narration=""):
    """The spread is cast as one working: the value of its highest Minor, never Prime; a
    spread of Majors only is a Major Work."""
    spread = state["spread"]
    if len(spread) < 2:
        raise IllegalMove("A group spread needs cards from at least two wizards.")
    if by != GM and by not in [o["by"] for o in spread]:
        raise IllegalMove("Only a wizard in the spread (or the GM) casts it.")
    with_skill = bool(skill) and any(skill in state["actors"][o["by"]]["skills"] for o in spread)
    minors = [card_value(o["card"]) for o in spread if deck.is_minor(o["card"])]
    cards = [o["card"] for o in spread]
    caster = spread[0]["by"]
    if minors:
        work = {"by": caster, "card": cards[0], "major": False, "prime": False, "suit": None,
                "value": max(minors), "skill": with_skill}
        words = f"value {work['value']}"
    else:
        top = max(cards, key=card_value)
        work = {"by": caster, "card": top, "major": True, "prime": False, "suit": None, "value": card_value(top),
                "skill": False}
        words = "a Major Work"
    say(state, by, "cast", "The group spread is cast (" + _card_list(cards) + f"), {words}.",
        narration=_narration(narration), cards=cards)
    for o in spread:
        if deck.is_major(o["card"]):
            wound(state, o["by"], "channelling a Major in the spread")
    state["spread"] = []
    _resolve(state, caster, work)
    state["discard"].extend(cards)


@act("ask", gm_only=True)
def _ask(state, by, target=None, narration=""):
    """The GM asks a player to act (the site mails them); acting answers the ask."""
    actor = _actor(state, target)
    if actor["kind"] != "player":
        raise IllegalMove("Only a player can be asked to act.")
    if target not in state["asked"]:
        state["asked"].append(target)
    say(state, by, "ask", f"{{gm}} asked {{{target}}} to act.", narration=_narration(narration))


@act("end_session", gm_only=True)
def _end_session(state, by, narration=""):
    state["over"] = True
    state["end_reason"] = "The game master closed the session."
    say(state, by, "end", state["end_reason"], narration=_narration(narration))


# --- what each one sees -------------------------------------------------------------------


def view(state: dict, viewer: str | None) -> dict:
    """What ``viewer`` ("gm", an actor's key, or None for an onlooker) may know."""
    gm = viewer == GM
    actors = {}
    for key, a in state["actors"].items():
        own = viewer == key or (gm and a["kind"] == "enemy")
        actors[key] = {
            "name": a["name"], "kind": a["kind"], "wounds": a["wounds"], "scars": a["scars"],
            "incapacitated": a["incapacitated"], "dead": a["dead"], "hand_size": len(a["hand"]),
            "hand": list(a["hand"]) if own else None, "prime": a["prime"], "practice": a["practice"],
            "skills": a["skills"], "all_prime": a["all_prime"], "choose_prime": a["choose_prime"],
            "meditated_today": a["meditated_on"] == state["day"],
        }
    enemies = {}
    for eid, e in state["enemies"].items():
        enemies[eid] = {"name": e["name"], "kind": e["kind"], "face_up": e["face_up"], "overcome": list(e["overcome"]),
                        "defeated": e["defeated"], "face_down": len(e["pile"]),
                        "pile": list(e["pile"]) if gm else None}
    challenge = state["challenge"]
    if challenge is not None:
        challenge = {k: v for k, v in challenge.items() if k != "work"}
    return {
        "viewer": viewer, "gm_hand": list(state["gm_hand"]) if gm else None, "gm_hand_size": len(state["gm_hand"]),
        "actors": actors, "enemies": enemies, "challenge": challenge, "deck_size": len(state["deck"]),
        "discard": list(state["discard"]), "spread": list(state["spread"]), "scene": state["scene"],
        "day": state["day"], "reversed_all": state["reversed_all"], "multiplication": state["multiplication"],
        "over": state["over"], "end_reason": state["end_reason"], "log": log_for(state, viewer),
        "asked": list(state["asked"]),
    }


def names(state: dict) -> dict[str, str]:
    """Every key's name as the state knows it (the site may know players' names better)."""
    return {GM: state["gm_name"], **{key: a["name"] for key, a in state["actors"].items()}}


def log_for(state: dict, viewer: str | None) -> list[dict]:
    """The log entries ``viewer`` may read: public ones and those addressed to them."""
    return [e for e in state["log"] if e.get("to", viewer) == viewer and e.get("not_to") != viewer]


def may_cast(state: dict, key: str) -> bool:
    actor = state["actors"].get(key)
    return bool(actor and not state["over"] and not actor["dead"] and not actor["incapacitated"] and actor["hand"])


def cast_cards(state: dict, key: str) -> list[str]:
    """Every card ``key`` played this session (cast or laid in a spread), in order."""
    return list(state["cast"].get(key, []))
