"""Why a deal stays undecided: the solver's depth-first search alone (no beams, no bounds,
no restarts), instrumented.  Not a benchmark of speed: a look inside one search.

Run from the repository root:  .venv/bin/python bench/solver_probe.py GAME SEED[,SEED...] SECONDS

Prints one JSON line a deal: "nodes" (states generated), "tt" (distinct states in the
transposition table), "hits" (children skipped as already in it), "lost_ends" (children
lost at once), "growth" ([CPU s, nodes, tt, path depth] at 1, 2, 4, 8... s),
"depth_now" (the path's depth when the time ran out), "todo_top" (children still to try
at depths 0-5), "backtracked_to" (the shallowest depth whose first child is done),
"size_by_height" (for each height, the largest subtree proved lost that spans that many
plies), "biggest_lost" ([depth, states] of the largest ones).  docs/solver-findings.md reads them.

Children are tried best first by the game's rank, as the solver does, but among equally
ranked ones the engine's *last* move first (a stable sort, popped from the end), where the
solver tries the engine's first: the two orders settle some deals very differently (see
docs/solver-findings.md), which is what the solver's randomised restarts are for.
"""
import json, os, sys, time
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from games.engine import get_rules
from games.solver import keys as K, order as O

def probe(slug, seed, secs):
    rules = get_rules(slug)
    state = rules.new_game(seed, rules.min_players, {"variant": "standard"})
    key_of = K.key_function(slug); prune = K.prune_function(slug); rank = O.rank_function(rules)
    seen = {hash(key_of(state))}
    st = dict(nodes=0, hits=0, lost_ends=0, exhausted=0, min_exhausted_depth=10**9)
    clock = time.process_time; t0 = clock()
    def expand(parent):
        seat = rules.to_act(parent)[0]
        found = []
        for move in prune(rules, parent, rules.legal_moves(parent, seat)):
            child = rules.apply(parent, seat, move); st["nodes"] += 1
            out = rules.outcome(child)
            if out is not None:
                if out["result"] == "win": return move, None
                st["lost_ends"] += 1; continue
            h = hash(key_of(child))
            if h in seen: st["hits"] += 1; continue
            seen.add(h); found.append((rank(child), move, child))
        found.sort(key=lambda x: x[0])
        return None, [(m, c) for _, m, c in found]
    win, kids = expand(state)
    stack = [kids]; widths = [len(kids)]; entered = [0]; sub = {}; below = [0]; hs = {}
    growth = []; nxt = 1.0; verdict = "undecided"
    if win: verdict = "winnable"
    while stack and verdict == "undecided":
        todo = stack[-1]
        if not todo:
            d = len(stack) - 1
            st["exhausted"] += 1; st["min_exhausted_depth"] = min(st["min_exhausted_depth"], d)
            size = st["nodes"] - entered[-1]
            h = below[-1]
            if size > hs.get(h, 0): hs[h] = size
            if len(below) > 1: below[-2] = max(below[-2], h + 1)
            cur = sub.get(d)
            sub[d] = max(cur, size) if cur else size
            stack.pop(); widths.pop(); entered.pop(); below.pop(); continue
        m, c = todo.pop()
        win, kids = expand(c)
        if win: verdict = "winnable"; break
        stack.append(kids); widths.append(len(kids)); entered.append(st['nodes']); below.append(0)
        el = clock() - t0
        if el >= nxt:
            growth.append((round(el, 1), st["nodes"], len(seen), len(stack))); nxt *= 2
        if el > secs: break
    if not stack and verdict == "undecided": verdict = "unwinnable"
    # How much of the top of the tree is finished: for the first 5 levels on the current
    # path, children done / children at that level.
    top = []
    for d in range(min(6, len(stack))):
        top.append(len(stack[d]))  # children still to do at depth d (excluding the one on the path)
    done = [widths[d] - len(stack[d]) - 1 for d in range(len(stack))]
    frontier = next((d for d, n in enumerate(done) if n > 0), None)
    big = sorted(((v, d) for d, v in sub.items()), reverse=True)[:3]
    return dict(game=slug, seed=seed, verdict=verdict, secs=round(clock()-t0, 1), tt=len(seen),
                depth_now=len(stack), todo_top=top, growth=growth, backtracked_to=frontier, size_by_height={h: hs[h] for h in sorted(hs)}, biggest_lost=[(d, v) for v, d in big], **st)

if __name__ == "__main__":
    slug = sys.argv[1]; secs = float(sys.argv[3])
    for s in sys.argv[2].split(","):
        print(json.dumps(probe(slug, int(s), secs)), flush=True)
