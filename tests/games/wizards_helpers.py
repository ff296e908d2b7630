"""A tarot wizards table for the tests: Alice runs it, Bob and Carol play, Olive Outsider
has an account and no business there."""

from __future__ import annotations

from games.engine.cards import DECK
from games.engine.tarot_wizards import session as rules
from games.wizards import services
from games.wizards.models import PlaySession

PRACTICE = {"s": "Air", "w": "Fire", "c": "Water", "p": "Earth"}
SPREADS = {
    "bob": ["M0", "2c", "3c", "4c", "5c", "7c"],
    "carol": ["M1", "2s", "3s", "5s", "6s", "8s"],
}


def make_character(table, user, name, *, prime="s", drawn_seed=None):
    spread = None if drawn_seed else [{"card": c} for c in SPREADS.get(user.username, SPREADS["bob"])]
    return services.save_character(
        table, user, name=name, spread=spread, drawn_seed=drawn_seed,
        notes={"heart": f"{name} is curious."},
        skills={"origin": "Latin", "purpose": "Haggling", "means": "Knots"},
        practice_name="Elementalism", practice=PRACTICE, prime=prime)


def make_table(alice, bob, carol, *, slow=False):
    table = services.create_table(alice, name="The Salt Road", campaign="Smugglers and sorcery", slow=slow)
    for user in (bob, carol):
        member = services.invite(table, alice, user.username)
        services.answer_invitation(member, user, accept=True)
    make_character(table, bob, "Morwen", prime="s")
    make_character(table, carol, "Tamsin", prime="c")
    return table


def stack(session: PlaySession, *, bob=(), carol=(), gm=(), top=()) -> PlaySession:
    """Deal the session again from a stacked deck (Bob's five, Carol's five, the GM's
    seven, then ``top``), keeping who is at the table."""
    wanted = list(bob) + list(carol) + list(gm) + list(top)
    spare = [c for c in DECK if c not in wanted]
    order = []
    keys = list(session.state["actors"])
    hands = dict(zip(keys, (bob, carol)))
    for key in keys:
        hand = list(hands.get(key, ()))
        while len(hand) < 5:
            hand.append(spare.pop())
        order += hand
    gm_hand = list(gm)
    while len(gm_hand) < 7:
        gm_hand.append(spare.pop())
    order += gm_hand + list(top) + spare
    players = {k: rules.new_actor(name=a["name"], prime=a["prime"], practice=a["practice"], skills=a["skills"])
               for k, a in session.state["actors"].items()}
    state = rules.new_session(session.state["seed"], players, deck_order=order, gm_name=session.state["gm_name"])
    PlaySession.objects.filter(pk=session.pk).update(state=state, start=state)
    session.refresh_from_db()
    return session
