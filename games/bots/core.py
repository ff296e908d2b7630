"""Choosing a move for a seat from what it may know: its view and its legal moves.

Levels (``LEVELS``):

``random``   a uniformly random legal move (the benchmarks' yardstick)
``greedy``   one-move look-ahead: each legal move is tried on a few determinizations of the
             view and the one whose result scores best (``scoring``) is played
``ismcts``, ``ismcts_deep``   single-observer information-set Monte Carlo tree search
             (Cowling, Powley and Whitehouse 2012, "Information Set Monte Carlo Tree Search")
             at two budgets of iterations: each iteration deals a fresh determinization of
             the view, walks one tree shared by all of them (a move's statistics count only
             the iterations in which it was legal: the "availability" count of the paper's
             UCB), adds a node, plays a short random playout and scores where it stops.

ISMCTS starts its root from the greedy level's judgement (each move as if tried
``PRIOR_VISITS`` times) and keeps the scorer's opinion of every node as a progressive bias
(Chaslot et al. 2008) that fades with visits: the search spends its iterations telling the
good moves apart rather than rediscovering the bad ones (measured with bench/bots.py).

Everything is seeded: the same view, moves, level and seed give the same move, so a bot
game replays.  The search never sees a real state: it builds its own from the view with
``Rules.determinize`` (every game registered today has one).  The documented fallback: a
game that lands without a determinizer gets a seeded random legal move at every level;
adding ``determinize.py`` and ``scoring.py`` to the game's folder (``games/engine/<folder>/``)
gives it the real levels.
A bot never forfeits while it has another move.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from dataclasses import dataclass, field

from games.engine.base import IllegalMove

from . import scoring

LEVELS = ("random", "greedy", "ismcts", "ismcts_deep")
BUDGETS = {"ismcts": 150, "ismcts_deep": 400}  # iterations per move
# The games played alone (and the Lovers' Discourse pair) try a move for little: their
# levels get more of the 2 s a move (GAME_BUDGETS[slug][level]).  With 400 iterations the
# deep level thought 0.04 s (Know Thyself) to 0.3 s (Hermit's Arcana) a move, and in
# bench/bots.py more iterations won more (Know Thyself 10.5 % at 150, 16 % at 400; Dream
# Odyssey 24 %, 36 %); these aim at about half a second a move on a loaded core, the 95th
# percentile under the 2 s.  The two-seat battles keep their budgets (and their rates).
GAME_BUDGETS: dict[str, dict[str, int]] = {
    "know_thyself": {"ismcts": 600, "ismcts_deep": 3000},
    "know_thyself_2021": {"ismcts": 400, "ismcts_deep": 2000},
    "dream_odyssey": {"ismcts": 500, "ismcts_deep": 2500},
    "hermits_arcana": {"ismcts": 200, "ismcts_deep": 800},
    "lovers_discourse": {"ismcts_deep": 700},
}
GREEDY_SAMPLES = 4  # determinizations the greedy level averages over
PLAYOUT_DEPTH = 2  # random moves after the tree before the state is scored (tuned on Warring Planets: deeper random playouts add noise)
# Games whose playouts should look further (measured with bench/bots.py: in Lovers' Discourse,
# since its scorer sees raised Minors with no place, 4 random moves resolve more Majors than
# 12, 8.4 against 7.7 a game over 20 games, at under half the time).
PLAYOUT_DEPTHS: dict[str, int] = {"lovers_discourse": 4}
EXPLORATION = 0.7
BIAS_WEIGHT = 1.0
PRIOR_VISITS = 8


def move_key(move: dict) -> str:
    """A move's name among the moves of one position.  The moves' values are flat (strings,
    numbers, lists of them; see games.views.read_move_field), so the repr of the sorted
    items names a move as well as JSON would, at half the cost: the search asks for it
    at every step of every iteration."""
    return repr(sorted(move.items()))


def rng_for(view: dict, seat: int, seed: int, salt: str = "") -> random.Random:
    """A generator fixed by the seed and the position (the view), so each position of a
    seeded bot game gets its own stream and a replay gets the same ones."""
    digest = hashlib.sha256(
        json.dumps([seed, seat, salt, view], sort_keys=True, default=str).encode()).hexdigest()
    return random.Random(int(digest[:16], 16))


def playable(moves: list[dict]) -> list[dict]:
    """The moves a bot considers: everything but forfeiting, unless that is all there is."""
    kept = [m for m in moves if m.get("type") != "forfeit"]
    return kept or list(moves)


def choose_move(rules, view: dict, moves: list[dict], seat: int, level: str = "greedy",
                seed: int = 0) -> dict:
    """The move the bot of ``level`` plays for ``seat``, from its view and legal moves."""
    return decide(rules, view, moves, seat, level, seed)[0]


def budget(rules, level: str) -> int:
    """ISMCTS iterations a move for ``level`` in this game."""
    return GAME_BUDGETS.get(rules.slug, {}).get(level, BUDGETS[level])


def decide(rules, view: dict, moves: list[dict], seat: int, level: str, seed: int,
           iterations: int | None = None):
    """``(move, stats)``: stats maps each considered move's key to (value, visits).
    ``iterations`` replaces the level's budget (the advice and the tests set their own)."""
    if level not in LEVELS:
        raise ValueError(f"Unknown bot level {level!r}; choose from {', '.join(LEVELS)}")
    options = playable(moves)
    if not options:
        raise ValueError("The bot has no legal move to choose from.")
    rng = rng_for(view, seat, seed, level)
    if len(options) == 1 or level == "random":
        return rng.choice(options), {}
    try:
        options = safe_options(rules, view, options, seat, rng)
        if len(options) == 1:
            return options[0], {}
        if level == "greedy":
            return greedy(rules, view, options, seat, rng)
        return ismcts(rules, view, options, seat, rng,
                      iterations if iterations is not None else budget(rules, level))
    except NotImplementedError:  # no determinizer for this game yet
        return rng.choice(options), {}


def safe_options(rules, view: dict, options: list[dict], seat: int, rng: random.Random) -> list[dict]:
    """The moves that add nothing to what the board reports as lost (``scoring.doom_for``: a
    ritual locked for ever in Hermit's Arcana), unless every move does; then the ones that
    add least.  A rule of thumb the search need not rediscover: such a move can look
    harmless a few moves deep and costs the game at the end."""
    doom = scoring.doom_for(rules)
    if doom is None:
        return options
    world = rules.determinize(view, seat, rng)
    before = doom(rules, world, seat)
    added = []
    for move in options:
        try:
            added.append(doom(rules, rules.apply(world, seat, move), seat) - before)
        except IllegalMove:
            added.append(math.inf)
    least = min(added)
    return [m for m, a in zip(options, added) if a <= max(least, 0)]


# --- greedy ----------------------------------------------------------------------------------

def greedy(rules, view: dict, options: list[dict], seat: int, rng: random.Random):
    worlds = [rules.determinize(view, seat, rng) for _ in range(GREEDY_SAMPLES)]
    stats = {}
    best, best_value = options[0], -math.inf
    for move in options:
        total = 0.0
        for world in worlds:
            try:
                total += scoring.score(rules, rules.apply(world, seat, move), seat)
            except IllegalMove:
                total -= scoring.WIN
        mean = total / len(worlds)
        stats[move_key(move)] = (mean, len(worlds))
        # Ties go to the first listed move, with a seeded nudge so the bot does not always
        # prefer the same card among equals.
        mean += rng.random() * 1e-6
        if mean > best_value:
            best, best_value = move, mean
    return best, stats


def greedy_move(rules, state: dict, seat: int, rng: random.Random) -> dict:
    """The greedy choice on a known (determinized) state: the playouts' smarter policy, with
    the rule of thumb of ``safe_options`` (nothing more reported lost if a move avoids it)."""
    options = playable(rules.legal_moves(state, seat))
    doom = scoring.doom_for(rules)
    before = doom(rules, state, seat) if doom is not None else 0
    best, best_value = options[0], (math.inf, -math.inf)
    for move in options:
        after = rules.apply(state, seat, move)
        added = max(doom(rules, after, seat) - before, 0) if doom is not None else 0
        v = (added, -(scoring.score(rules, after, seat) + rng.random() * 1e-6))
        if v < best_value:
            best, best_value = move, v
    return best


# --- ISMCTS ----------------------------------------------------------------------------------

@dataclass
class Node:
    move: dict | None = None
    player: int | None = None  # who made the move leading here
    visits: int = 0
    reward: float = 0.0
    avail: int = 1
    bias: float = 0.5  # the scorer's value of the position the move leads to, in [0, 1]
    children: dict[str, "Node"] = field(default_factory=dict)

    def ucb(self) -> float:
        # Progressive bias (Chaslot et al. 2008): the scorer's opinion weighs while a move
        # has few visits and fades as the search's own statistics grow.
        return (self.reward / self.visits
                + EXPLORATION * math.sqrt(math.log(self.avail) / self.visits)
                + BIAS_WEIGHT * self.bias / (self.visits + 1))


def ismcts(rules, view: dict, options: list[dict], seat: int, rng: random.Random,
           iterations: int):
    root = Node()
    root_keys = {move_key(m): m for m in options}
    # The root's moves start from the greedy level's judgement, as if each had been tried
    # PRIOR_VISITS times: the search then spends its iterations on telling the good moves
    # apart instead of rediscovering the bad ones.
    _, judged = greedy(rules, view, options, seat, rng)
    for key, (mean, _n) in judged.items():
        prior = _reward(mean)
        root.children[key] = Node(root_keys[key], seat, visits=PRIOR_VISITS,
                                  reward=prior * PRIOR_VISITS, bias=prior)
    players = range(max(1, len(view.get("hand_counts") or [0])))
    for _ in range(iterations):
        state = rules.determinize(view, seat, rng)
        node, path = root, [root]
        while True:
            actors = rules.to_act(state)
            if not actors:
                break
            if node is root:
                # The root is the bot's own choice.  Where several seats are asked at once
                # (Tarot Hallow's cards played face down) its seat need not be the first
                # listed, and its moves are its own: the others choose below it.
                actor, legal = seat, dict(root_keys)
            else:
                actor = actors[0]
                legal = {move_key(m): m for m in playable(rules.legal_moves(state, actor))}
            known = [node.children[k] for k in legal if k in node.children]
            for child in known:
                child.avail += 1
            untried = [k for k in legal if k not in node.children]
            if untried:
                key = rng.choice(untried)
                state = rules.apply(state, actor, legal[key])
                child = Node(legal[key], actor, bias=scoring.value(rules, state, actor))
                node.children[key] = child
                path.append(child)
                break
            node = max(known, key=Node.ucb)
            state = rules.apply(state, actor, node.move)
            path.append(node)
        state = playout(rules, state, rng)
        rewards = {p: scoring.value(rules, state, p) for p in set(players) | {seat}}
        for n in path:
            n.visits += 1
            if n.player is not None:
                n.reward += rewards.get(n.player, 0.0)
    stats = {k: (c.reward / c.visits, c.visits) for k, c in root.children.items()}
    best = max(options, key=lambda m: (root.children[move_key(m)].visits
                                       if move_key(m) in root.children else -1,
                                       stats.get(move_key(m), (0, 0))[0]))
    return best, stats


def _reward(score: float) -> float:
    if score >= scoring.WIN:
        return 1.0
    if score <= -scoring.WIN:
        return 0.0
    return 1.0 / (1.0 + math.exp(-score / scoring.SCALE))


def playout(rules, state: dict, rng: random.Random, depth: int | None = None) -> dict:
    if depth is None:
        depth = PLAYOUT_DEPTHS.get(rules.slug, PLAYOUT_DEPTH)
    for _ in range(depth):
        actors = rules.to_act(state)
        if not actors:
            break
        actor = actors[0]
        moves = playable(rules.legal_moves(state, actor))
        state = rules.apply(state, actor, rng.choice(moves))
    return state
