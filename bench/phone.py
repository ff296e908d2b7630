"""A phone on a slow network: how long game pages take to load, and how soon a computer
player's answer shows (issue 42).

    .venv/bin/python bench/phone.py [--database-url postgres://postgres@127.0.0.1:5432/sefirot_phone]
                                    [--redis-url redis://127.0.0.1:6379/0] [--port 8300]
                                    [--repeats 5] [--answers 20] [--level greedy] [--json]
                                    [--answers-only] [--no-before]

It serves the site as production does: DEBUG off, static files collected and served by
WhiteNoise (hashed names, compressed), gunicorn with one sync worker, a Celery worker over
Redis (on a queue of its own, so another site's worker on the same Redis takes none of its
tasks), PostgreSQL (the database is made if missing and migrated).  It makes a Warring
Planets game at move 35 (seeded random moves, never a forfeit), a Dream Odyssey game 15
moves in, and games against the computer (``--level``, the quick one by default).

Then, in Debian's Chromium (Playwright) at 390 x 844 CSS pixels, with the DevTools
protocol's throttling of a slow phone (``Emulation.setCPUThrottlingRate`` 4, and
``Network.emulateNetworkConditions`` 400 ms latency, 400 kbit/s each way):

- the load time of the login page (logged out), the Warring Planets page and the Dream
  Odyssey page: from the start of navigation to the end of the later of the load event
  and the last resource's answer (the card sprite is fetched by ``<use>``), each the
  median of ``--repeats`` loads in a fresh browser context (nothing cached: the first
  visit), and the same again with the browser's cache warm (a second visit); with the
  requests each made.  Each game page should load within 1.5x the login page.
- the time from a click on a move against the computer to the computer's answer on the
  page (its move in the log), ``--answers`` times, p50, p95 and max, once without
  throttling and once with it (issue 42: p95 under 1 s throttled), with its parts: when
  the move's own answer had come in after the click, and after its last byte when htmx
  began to swap it, had swapped it (its afterSwap handlers included), the computer's move
  was in the page, and the answer had settled; the main thread's long tasks meanwhile;
  when the computer's move was committed after the player's; how many of the computer's
  moves came in the move's own answer, and that answer's size.  Side by side, as the site
  answered before (a second server with ``COMPUTER_MOVES_IN_REQUEST=off``: the worker
  plays the computer's move and the page's fast poll finds it, two round trips with the
  throttling's 400 ms of latency) and as it answers now (the move's request plays a quick
  computer's move and its answer brings it: one round trip), five moves on one then five
  on the other, so both meet the same load (``--no-before`` skips the first;
  ``--answers-only`` times nothing else).  The load average is printed at the start and
  the end: on a shared machine the figures swing with it.
- what the count every page polls for costs (``/games/waiting/``, asked every 5 s by every
  open page) against the constant answer (``/bench/bare``): p50 and p95 over 300 requests
  sent one after the other, and the server's CPU per request.

``--json`` prints the figures as one JSON object.  Needs the test tools (Playwright;
python3.11 dev.py test installs them) and Debian's chromium.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.web import cpu_seconds, ensure_database, say, server_env, set_up_django, wait_for_server  # noqa: E402

CHROMIUM = "/usr/bin/chromium"  # Debian's, as the browser tests use (tests/conftest.py)
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}
SLOW_NETWORK = {"offline": False, "latency": 400, "downloadThroughput": 400_000 / 8, "uploadThroughput": 400_000 / 8}
SLOW_CPU = 4
WARRING_MOVES, DREAM_MOVES = 35, 15

# From the start of navigation to the end of the load event or of the last resource's
# answer, whichever is later.  Not part of its loading: the page's own polls (XHR), and
# the browser's fetch of the page's icon (<link rel=icon>), made after the load, of a file
# the page already showed (the brand's picture): a second entry for the same address.
LOADED = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const seen = new Set();
  const resources = performance.getEntriesByType("resource").filter((r) => {
    if (r.initiatorType === "xmlhttprequest" || seen.has(r.name)) return false;
    seen.add(r.name);
    return true;
  });
  return {ms: Math.max(nav.loadEventEnd, ...resources.map((r) => r.responseEnd)), requests: resources.length + 1,
          bytes: nav.transferSize + resources.reduce((sum, r) => sum + r.transferSize, 0)};
}"""

EACH_FILE = """() => [performance.getEntriesByType("navigation")[0], ...performance.getEntriesByType("resource")]
  .map((r) => `${r.name.split("/").pop().slice(0, 30)} ${r.transferSize}/${r.decodedBodySize} `
              + `${Math.round(r.startTime)}-${Math.round(r.responseEnd)}`)"""

# The click on a move's button, then the computer's answer on the page: the log holds a
# move numbered after the player's (each entry's value is its move's number).
WATCH_ANSWER = """(played) => {
  if (window.benchWatch) window.benchWatch.disconnect();  // the previous move's
  window.benchClicked = null; window.benchAnswered = null; window.benchPainted = null; window.benchInAnswer = null;
  // Whether the move's own answer was drawn after the computer's move (its log entry, or
  // the forms' version, holds the computer's move's number), or a poll brought it later.
  if (window.benchAfterPost) document.removeEventListener("htmx:afterRequest", window.benchAfterPost);
  window.benchAfterPost = (event) => {
    if (window.benchInAnswer !== null || !event.detail.requestConfig || event.detail.requestConfig.verb !== "post"
        || !event.detail.xhr) return;  // a poll's, or the badge's count's
    window.benchInAnswer = event.detail.xhr.responseText.includes(`value="${played + 1}"`);
  };
  document.addEventListener("htmx:afterRequest", window.benchAfterPost);
  // Where the page's time goes once the move's answer is in: htmx's steps for that answer
  // (its swap, the handlers of its afterSwap, its settle), the size of its HTML, and the
  // main thread's long tasks (50 ms and more) from the click on.
  window.benchSteps = {};
  const mark = (name) => (event) => {
    const config = event.detail && event.detail.requestConfig;
    if (config && config.verb === "post" && !(name in window.benchSteps)) {
      window.benchSteps[name] = performance.now();
      if (name === "beforeSwap") window.benchSteps.chars = event.detail.xhr.responseText.length;
    }
  };
  if (!window.benchMarks) {  // once a page: the steps' listeners
    window.benchMarks = true;
    for (const name of ["beforeSwap", "afterSwap", "afterSettle"]) {
      document.addEventListener(`htmx:${name}`, mark(name));
    }
    window.benchLong = [];
    if (window.PerformanceObserver && PerformanceObserver.supportedEntryTypes.includes("longtask")) {
      new PerformanceObserver((list) => window.benchLong.push(...list.getEntries().map((e) => [e.startTime, e.duration])))
        .observe({type: "longtask"});
    }
  }
  window.benchLong.length = 0;
  performance.clearResourceTimings();  // its buffer holds 250 entries, and the fast poll fills it
  document.addEventListener("click", (event) => {
    if (event.target.closest("form.move-form button")) window.benchClicked = performance.now();
  }, {capture: true, once: true});
  window.benchWatch = new MutationObserver(() => {
    if (window.benchClicked === null || window.benchAnswered !== null) return;
    const numbers = [...document.querySelectorAll("#log .log-list li[value]")].map((entry) => +entry.value);
    if (numbers.some((number) => number > played)) {
      window.benchAnswered = performance.now();
      // And painted: a frame's callbacks run before its paint, a task queued there after it.
      requestAnimationFrame(() => setTimeout(() => { window.benchPainted = performance.now(); }));
    }
  });
  window.benchWatch.observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
}"""


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=os.environ.get(
        "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sefirot_phone"))
    parser.add_argument("--redis-url", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    parser.add_argument("--port", type=int, default=8300)
    parser.add_argument("--repeats", type=int, default=5, help="loads of each page, cold and warm (the median counts)")
    parser.add_argument("--answers", type=int, default=20, help="moves against the computer timed, each way")
    parser.add_argument("--level", default="greedy", help="the computer player's level")
    parser.add_argument("--answers-only", action="store_true", help="time only the computer's answers")
    parser.add_argument("--no-before", action="store_true",
                        help="skip the computer's answers timed as before (COMPUTER_MOVES_IN_REQUEST=off)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    return parser.parse_args()


# --- the games -------------------------------------------------------------------------------


def session_for(user) -> str:
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session["_auth_user_id"] = str(user.pk)
    session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
    session["_auth_user_hash"] = user.get_session_auth_hash()
    session.create()
    return session.session_key


def played_to(game, moves: int, seed: int):
    """``game`` after up to ``moves`` seeded random moves, never a forfeit nor one that ends it."""
    from games import services
    from games.models import Game

    choose = random.Random(seed)
    for _ in range(moves):
        game = Game.objects.get(pk=game.pk)
        rules, state = game.rules, game.load_state()
        seat = choose.choice(game.to_act)
        legal = [m for m in rules.legal_moves(state, seat) if m["type"] not in ("forfeit", "resign")]
        safe = [m for m in legal if rules.outcome(rules.apply(state, seat, m)) is None]
        if not safe:
            break
        services.submit_move(game.pk, game.seats.get(index=seat), choose.choice(safe), game.version)
    return Game.objects.get(pk=game.pk)


def make_games(level: str) -> dict:
    from django.contrib.auth import get_user_model

    from games import services
    from games.models import Game

    User = get_user_model()
    alice, _ = User.objects.get_or_create(username="phone-alice", defaults={"password": "!", "display_name": "Alice"})
    bob, _ = User.objects.get_or_create(username="phone-bob", defaults={"password": "!", "display_name": "Bob"})
    Game.objects.filter(created_by__in=[alice, bob]).delete()  # made afresh for each run
    duel = services.start_game(alice, "warring_planets", {"variant": "standard"}, opponent=bob, seed=4)
    services.accept_invitation(duel.pk, bob)
    duel = played_to(duel, WARRING_MOVES, seed=4)
    dream = played_to(services.start_game(alice, "dream_odyssey", {"variant": "standard"}, seed=3), DREAM_MOVES, 3)
    viewer = duel.seats.get(index=duel.to_act[0]).user  # the player asked: the page with its choices
    return {"warring": (duel, session_for(viewer)), "dream": (dream, session_for(alice)),
            "alice": alice, "alice_session": session_for(alice), "level": level}


def game_against_computer(alice, level: str, seed: int):
    from games import services
    from games.computer import computer_player
    from games.models import Seat

    game = services.start_game(alice, "warring_planets", {"variant": "standard"}, opponent=computer_player(level),
                               seed=seed)
    # No "Ask before sending a move that draws cards": one click is the move.
    Seat.objects.filter(game=game, user=alice).update(confirm_moves=False)
    return game


# --- the browser -------------------------------------------------------------------------------


def new_page(browser, base: str, session_key: str | None, throttled: bool):
    context = browser.new_context(base_url=base, viewport=PHONE, device_scale_factor=3, is_mobile=True,
                                  has_touch=True)
    context.set_default_timeout(60_000)
    if session_key:
        context.add_cookies([{"name": "sessionid", "value": session_key, "url": base}])
    page = context.new_page()
    if os.environ.get("BENCH_PROFILE"):  # htmx's own names in the profile: its unminified source
        import django_htmx

        readable = Path(django_htmx.__file__).parent / "static" / "django_htmx" / "htmx-2.js"
        page.route("**/htmx-2.min.*js", lambda route: route.fulfill(path=readable,
                                                                     content_type="text/javascript"))
    page.cdp = context.new_cdp_session(page)
    if throttled:
        page.cdp.send("Network.enable")
        page.cdp.send("Network.emulateNetworkConditions", SLOW_NETWORK)
        page.cdp.send("Emulation.setCPUThrottlingRate", {"rate": SLOW_CPU})
    return context, page


# BENCH_PROFILE=40: the page's CPU profile (the DevTools protocol's Profiler) over each timed
# answer, by server (its port) and throttling: its self time summed by function (layout and
# style a script forces count to it), and with what it calls ("total"), printed at the end,
# the 40 heaviest first, with htmx's unminified source for its names: where the page's
# time goes.
PROFILE: dict[str, float] = {}


def profile_start(page) -> None:
    if os.environ.get("BENCH_PROFILE"):
        page.cdp.send("Profiler.enable")
        page.cdp.send("Profiler.setSamplingInterval", {"interval": 200})
        page.cdp.send("Profiler.start")


def profile_stop(page, key: str) -> None:
    if not os.environ.get("BENCH_PROFILE"):
        return
    profile = page.cdp.send("Profiler.stop")["profile"]
    names = {}
    for node in profile["nodes"]:
        frame = node["callFrame"]
        where = frame["url"].rsplit("/", 1)[-1].split("?")[0]
        names[node["id"]] = f"{frame['functionName'] or '(anonymous)'} {where}:{frame['lineNumber'] + 1}" \
            if where else frame["functionName"]
    parent = {child: node["id"] for node in profile["nodes"] for child in node.get("children", ())}
    for sample, delta in zip(profile["samples"], profile["timeDeltas"]):
        name = f"{key} self {names[sample]}"
        PROFILE[name] = PROFILE.get(name, 0) + delta / 1000
        # And with what it called ("total"), once a sample for each function on its stack.
        stack, node = set(), sample
        while node is not None:
            stack.add(names[node])
            node = parent.get(node)
        for caller in stack - {"(root)", ""}:
            name = f"{key} total {caller}"
            PROFILE[name] = PROFILE.get(name, 0) + delta / 1000


def print_profile() -> None:
    if PROFILE:
        print("\nThe page's CPU profile over the timed answers, self ms by function (BENCH_PROFILE):", file=sys.stderr)
        for name, ms in sorted(PROFILE.items(), key=lambda item: -item[1])[:int(os.environ["BENCH_PROFILE"])]:
            print(f"{ms:>9.0f}  {name}", file=sys.stderr)


def load_once(page, path: str) -> dict:
    page.goto(path, wait_until="load")
    page.wait_for_load_state("networkidle")
    if os.environ.get("BENCH_DEBUG"):  # each file: bytes sent/unpacked, when asked-answered (ms)
        print(path, page.evaluate(EACH_FILE), file=sys.stderr)
    return page.evaluate(LOADED)


def load_times(browser, base: str, path: str, session_key: str | None, repeats: int) -> dict:
    """Median load of ``path``: in a fresh context each time (cold), then loaded again (warm)."""
    cold, warm = [], []
    for _ in range(repeats):
        context, page = new_page(browser, base, session_key, throttled=True)
        try:
            cold.append(load_once(page, path))
            warm.append(load_once(page, path))
        finally:
            context.close()
    return {"ms": statistics.median(c["ms"] for c in cold), "requests": cold[0]["requests"],
            "kb": cold[0]["bytes"] / 1000, "warm_ms": statistics.median(w["ms"] for w in warm),
            "warm_requests": warm[0]["requests"]}


# From the click to the last byte of the move's own answer (the POST's XHR), and the
# page's steps after it (WATCH_ANSWER), each in ms after that last byte.
MOVE_ANSWER_RECEIVED = """() => {
  const posts = performance.getEntriesByType("resource").filter((r) => r.name.endsWith("/move/")
    && r.startTime >= window.benchClicked);
  if (!posts.length) return null;
  const end = posts[posts.length - 1].responseEnd, steps = window.benchSteps;
  const after = (name) => typeof steps[name] === "number" ? steps[name] - end : null;
  return {received: end - window.benchClicked, shown: window.benchAnswered - end,
          painted: window.benchPainted - window.benchClicked,
          before_swap: after("beforeSwap"), after_swap: after("afterSwap"), settled: after("afterSettle"),
          chars: steps.chars || 0, kb: posts[posts.length - 1].transferSize / 1000,
          long_tasks: window.benchLong.filter(([start]) => start >= window.benchClicked)
            .reduce((sum, [, duration]) => sum + duration, 0)};
}"""

# A move's button, found by the move its form sends; clicked by the page's own script (a
# real click event, which htmx turns into the form's post), so that no waiting of the
# driver's for the button to hold still comes between the click and its timing.
CLICK = """([selector, value]) => {
  const form = [...document.querySelectorAll(selector)].find((f) => f.querySelector("input[name=move]").value === value);
  if (!form) return false;
  form.querySelector("button").click();
  return true;
}"""
PICK = """(card) => {
  const pick = document.querySelector(`a.pick[href="?pick=${card}"]`);
  if (pick) pick.click();
}"""


def click_move(page, game, move: dict) -> None:
    """As a person plays it: a card first where the move has one, then the move's button."""
    value = json.dumps(move, sort_keys=True, separators=(",", ":"))
    forms = "#game form.move-form"
    # The form there, and taken in hand by htmx (which does so as it settles new content, a
    # moment after it is in the page): clicked before, it would post as a plain form.
    has_form = (f"() => [...document.querySelectorAll('{forms}')].some((f) => f.querySelector('input[name=move]')"
                f".value === {json.dumps(value)} && f['htmx-internal-data'] && f['htmx-internal-data'].initHash)")
    if "card" in move and not page.evaluate(has_form):
        page.evaluate(PICK, move["card"])
    page.wait_for_function(has_form)
    page.evaluate(WATCH_ANSWER, game.version + 1)
    assert page.evaluate(CLICK, [forms, value]), f"no button for {value}"


def answer_times(browser, base: str, games: dict, samples: int, throttled: bool) -> dict[str, list]:
    """Moves that hand the turn to the computer, in games against it, ``samples`` of them
    timed: for each, the ms from the click to the computer's answer on the page (its move
    in the log: "shown"), and the parts of it (lists, by name): when the computer's move
    was committed after the player's ("computer"), when the move's own answer had come in
    after the click ("received") and, after that last byte, when htmx began to swap it,
    had swapped it and had settled, the computer's move in the page, and the answer's
    size, the main thread's long tasks meanwhile; and whether the computer's move came
    in the move's own answer ("in_answer"); and the pages where a move loaded the page
    anew instead ("reloads": none while htmx works)."""
    from games.models import Game, Move

    alice, level = games["alice"], games["level"]
    choose = random.Random(42)
    found: dict[str, list] = {name: [] for name in ("shown", "reloads", "computer", "in_answer", "steps")}
    context, page = new_page(browser, base, games["alice_session"], throttled)
    if os.environ.get("BENCH_DEBUG"):  # every request the page makes, with when
        page.on("request", lambda r: print(f"{time.monotonic():.2f} {r.method} {r.url}", file=sys.stderr))
    seed = 100
    game = None
    try:
        while len(found["shown"]) < samples:
            if game is None or Game.objects.get(pk=game.pk).status != Game.Status.ACTIVE:
                seed += 1
                game = game_against_computer(alice, level, seed)
                page.goto(f"/games/{game.pk}/")
            page.locator("#status p.turn.my-turn").wait_for()
            game = Game.objects.get(pk=game.pk)
            if game.to_act != [0]:
                continue  # the page shows the turn before the database's row is read again
            rules, state = game.rules, game.load_state()
            moves = [m for m in rules.legal_moves(state, 0) if m["type"] not in ("forfeit", "resign")]
            move = choose.choice(moves)
            after = rules.apply(state, 0, move)
            timed = rules.to_act(after) == [1]
            if timed:
                profile_start(page)
            click_move(page, game, move)
            if timed:  # the computer's turn: time its answer
                # (or the page was loaded anew, its watch gone: then it is not timed, but counted)
                page.wait_for_function("() => typeof window.benchAnswered === 'number' || !window.benchWatch",
                                       timeout=60_000)
                took = page.evaluate("typeof window.benchAnswered === 'number' && typeof window.benchClicked === "
                                     "'number' ? window.benchAnswered - window.benchClicked : null")
                if took is None:
                    found["reloads"].append(page.url)
                    profile_stop(page, "reloaded")
                    continue
                # The settle comes a timer after the swap: waited for, so its time is read.
                page.wait_for_function("() => 'afterSettle' in window.benchSteps && window.benchPainted !== null",
                                       timeout=10_000)
                profile_stop(page, f"{'throttled' if throttled else 'unthrottled'} :{base.rsplit(':', 1)[-1]}")
                found["shown"].append(took)
                found["in_answer"].append(page.evaluate("window.benchInAnswer === true"))
                steps = page.evaluate(MOVE_ANSWER_RECEIVED)
                if steps is not None:
                    found["steps"].append(steps)
                # When the computer's move was committed, after the player's.
                made = dict(Move.objects.filter(game=game, number__in=(game.version + 1, game.version + 2))
                            .values_list("number", "created_at"))
                if len(made) == 2:
                    found["computer"].append((made[game.version + 2] - made[game.version + 1]).total_seconds() * 1000)
                if os.environ.get("BENCH_DEBUG"):  # each answer: shown, and its parts
                    print(f"answer {took:.0f} ms, in the move's answer {found['in_answer'][-1]}, {steps}, computer "
                          f"{found['computer'][-1] if len(made) == 2 else 0:.0f} ms", file=sys.stderr)
            else:  # a move that leaves the turn with the player (or ends the game): on the page
                page.locator(f'#log .log-list li[value="{game.version + 1}"]').wait_for()
    finally:
        context.close()
    return found


# Moves timed against one server before the bench turns to the other (before/after).
ANSWERS_IN_TURN = 5


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(round(len(ordered) * 0.95)) - 1)]


WAYS = {"before": "before: the worker plays it, a poll finds it", "now": "now: played in the move's request"}
# The rows of the side-by-side table: name, what it times, and its values in one way's figures.
ROWS = (
    ("shown", "click -> computer's move on the page", lambda f: f["shown"]),
    ("painted", "click -> the page painted with it", lambda f: [s["painted"] for s in f["steps"]]),
    ("received", "  click -> move's answer received", lambda f: [s["received"] for s in f["steps"]]),
    ("drawn", "  received -> move in the page", lambda f: [s["shown"] for s in f["steps"]]),
    ("to_swap", "    received -> htmx swaps it", lambda f: [s["before_swap"] for s in f["steps"]
                                                          if s["before_swap"] is not None]),
    ("swap", "    htmx's swap and handlers", lambda f: [s["after_swap"] - s["before_swap"] for s in f["steps"]
                                                       if None not in (s["after_swap"], s["before_swap"])]),
    ("settled", "  received -> settled", lambda f: [s["settled"] for s in f["steps"] if s["settled"] is not None]),
    ("long_tasks", "  long tasks, click -> shown", lambda f: [s["long_tasks"] for s in f["steps"]]),
    ("computer", "computer's move committed after", lambda f: f["computer"]),
)


def report_answers(args, figures: dict, found: dict, throttled: bool) -> None:
    """The computer's answers, before and now side by side, into ``figures`` and printed."""
    way_names = list(found)
    say(args, f"\nA move against the computer ({args.level}), {'throttled (CPU 4x, 400 ms, 400 kbit/s)' if throttled else 'unthrottled'}: "
              f"ms, p50 / p95 / max of {args.answers} moves each way (the post's answer: the move's own"
              + (", not the poll's, for before" if "before" in found else "") + ")")
    say(args, "; ".join(WAYS[way] for way in way_names))
    say(args, f"{'':<36}" + "".join(f"{way:>22}" for way in way_names))
    for row, words, values_of in ROWS:
        cells = []
        for way in way_names:
            values = values_of(found[way])
            key = ("answer_throttled" if throttled else "answer") + ("_before" if way == "before" else "")
            if row == "shown":
                figures.update({f"{key}_p50_ms": statistics.median(values), f"{key}_p95_ms": p95(values),
                                f"{key}_max_ms": max(values), f"{key}_samples": len(values)})
            elif values:
                figures.update({f"{key}_{row}_p50_ms": statistics.median(values), f"{key}_{row}_p95_ms": p95(values)})
            cells.append(f"{statistics.median(values):.0f} / {p95(values):.0f} / {max(values):.0f}" if values else "-")
        say(args, f"{words:<36}" + "".join(f"{cell:>22}" for cell in cells))
    cells = []
    for way in way_names:
        key = ("answer_throttled" if throttled else "answer") + ("_before" if way == "before" else "")
        steps = found[way]["steps"]
        chars = statistics.median(s["chars"] for s in steps) if steps else 0
        kb = statistics.median(s["kb"] for s in steps) if steps else 0
        figures.update({f"{key}_in_the_moves_answer": sum(found[way]["in_answer"]),
                        f"{key}_reloads": len(found[way]["reloads"]), f"{key}_answer_chars": chars,
                        f"{key}_answer_kb": kb})
        cells.append(f"{sum(found[way]['in_answer'])} of {len(found[way]['shown'])}, {chars / 1000:.1f}k/{kb:.1f} kB")
    say(args, f"{'in the move answer; its HTML/sent':<36}" + "".join(f"{cell:>22}" for cell in cells))
    for way in way_names:
        if found[way]["reloads"]:
            say(args, f"{way}: {len(found[way]['reloads'])} loaded the page anew: {found[way]['reloads']}")


# --- the poll's cost ------------------------------------------------------------------------------


def request_times(port: int, path: str, session_key: str, count: int) -> list[float]:
    times = []
    for _ in range(count):
        start = time.perf_counter()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", path, headers={"Cookie": f"sessionid={session_key}", "HX-Request": "true"})
        response = conn.getresponse()
        response.read()
        conn.close()
        assert response.status in (200, 204), (path, response.status)
        times.append((time.perf_counter() - start) * 1000)
    return times


def poll_cost(port: int, server_pid: int, session_key: str, count: int = 300) -> dict:
    figures = {}
    for name, path in (("bare", "/bench/bare"), ("waiting", "/games/waiting/")):
        request_times(port, path, session_key, 20)  # warm the worker and its connection
        before = cpu_seconds(server_pid)
        times = request_times(port, path, session_key, count)
        after = cpu_seconds(server_pid)
        figures[f"{name}_p50_ms"] = statistics.median(times)
        figures[f"{name}_p95_ms"] = p95(times)
        if before is not None and after is not None:
            server = sum(seconds for pid, (part, seconds) in after.items() if part == "server") - \
                sum(seconds for pid, (part, seconds) in before.items() if part == "server" and pid in after)
            figures[f"{name}_server_cpu_ms"] = 1000 * server / count
    return figures


# --- the run ---------------------------------------------------------------------------------------


def main():
    args = parse_args()
    # Stopped from outside (timeout, kill): the finally below still stops the server and worker.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped"))
    ensure_database(args.database_url)
    work = Path(tempfile.mkdtemp(prefix="sefirot-bench-phone-"))
    env = server_env(args, work / "data", work / "static")
    env.update({"REDIS_URL": args.redis_url, "CELERY_QUEUE": f"phone-bench-{secrets.token_hex(4)}",
                "CACHE_KEY_PREFIX": f"phone-bench-{secrets.token_hex(4)}:"})
    py = sys.executable
    processes = []
    try:
        subprocess.run([py, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
        subprocess.run([py, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
        os.environ.update({key: env[key] for key in ("REDIS_URL", "CELERY_QUEUE", "CACHE_KEY_PREFIX")})
        # Playwright's sync API runs an event loop in this thread; the bench's database calls
        # between its steps are plain synchronous ones all the same (as in the browser tests).
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
        set_up_django(env)
        games = make_games(args.level)
        logs = open(work / "processes.log", "wb")

        def start_server(port: int, extra_env: dict):
            server = subprocess.Popen(
                [py, "-m", "gunicorn", "sefirot_site.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "1",
                 "--worker-class", "sync", "--log-level", "warning", "--no-control-socket",
                 "--env", "DJANGO_SETTINGS_MODULE=bench.web_settings"], cwd=ROOT, env={**env, **extra_env},
                stdout=logs, stderr=logs)
            processes.append(server)
            wait_for_server(port, server)
            return server

        server = start_server(args.port, {})
        # The site as it answered before the move's request played a quick computer's
        # answer (the worker plays it, the page's fast poll finds it), on the next port.
        if not args.no_before:
            start_server(args.port + 1, {"COMPUTER_MOVES_IN_REQUEST": "off"})
        processes.append(subprocess.Popen(
            [py, "-m", "celery", "-A", "sefirot_site", "worker", "--loglevel", "WARNING", "--concurrency", "1",
             "--queues", env["CELERY_QUEUE"], "--hostname", f"phone-bench-{secrets.token_hex(3)}@%h"],
            cwd=ROOT, env=env, stdout=logs, stderr=logs))
        base = f"http://127.0.0.1:{args.port}"
        from playwright.sync_api import sync_playwright

        duel, duel_session = games["warring"]
        dream, dream_session = games["dream"]
        say(args, f"Server: gunicorn, 1 sync worker, DEBUG off, static files by WhiteNoise; a Celery worker over "
                  f"Redis; PostgreSQL. Chromium at {PHONE['width']} px, CPU {SLOW_CPU}x slower, "
                  f"{SLOW_NETWORK['latency']} ms latency, 400 kbit/s. Load average at the start: "
                  + ", ".join(f"{load:.2f}" for load in os.getloadavg()) + f" ({os.cpu_count()} CPUs).")
        figures: dict = {"warring_move": duel.version, "dream_move": dream.version}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            try:
                pages = {"login": ("/accounts/login/", None), "warring_planets": (f"/games/{duel.pk}/", duel_session),
                         "dream_odyssey": (f"/games/{dream.pk}/", dream_session)}
                if not args.answers_only:
                    say(args, f"{'page':<16} {'load ms':>8} {'requests':>9} {'kB':>7} {'warm ms':>8} {'warm req':>9}  "
                              f"vs login (median of {args.repeats})")
                for name, (path, session_key) in pages.items() if not args.answers_only else ():
                    loaded = load_times(browser, base, path, session_key, args.repeats)
                    figures.update({f"{name}_{key}": value for key, value in loaded.items()})
                    ratio = loaded["ms"] / figures["login_ms"]
                    if name != "login":
                        figures[f"{name}_vs_login"] = ratio
                    say(args, f"{name:<16} {loaded['ms']:>8.0f} {loaded['requests']:>9} {loaded['kb']:>7.1f} "
                              f"{loaded['warm_ms']:>8.0f} {loaded['warm_requests']:>9}  {ratio:.2f}x")
                # A worker just started takes seconds over its first task (imports, connections):
                # a few moves untimed first.
                answer_times(browser, base, games, 3, throttled=False)
                # Before and after in turns, a few moves each, so that both meet the same load
                # of a shared machine, which swings from minute to minute.
                ways = {"now": base} if args.no_before else {"before": f"http://127.0.0.1:{args.port + 1}", "now": base}
                for throttled in (False, True):
                    found = {way: {} for way in ways}
                    while any(len(found[way].get("shown", ())) < args.answers for way in ways):
                        for way, at in ways.items():
                            more = answer_times(browser, at, games, min(ANSWERS_IN_TURN, args.answers), throttled)
                            for name, values in more.items():
                                found[way].setdefault(name, []).extend(values)
                    report_answers(args, figures, found, throttled)
            finally:
                browser.close()
                print_profile()
        cost = {} if args.answers_only else poll_cost(args.port, server.pid, games["alice_session"])
        figures.update(cost)
        if cost:
            say(args, "The count every page polls for (300 requests one after another, no throttling): "
                      f"/games/waiting/ p50 {cost['waiting_p50_ms']:.1f} ms, p95 {cost['waiting_p95_ms']:.1f} ms; "
                      f"/bench/bare p50 {cost['bare_p50_ms']:.1f} ms, p95 {cost['bare_p95_ms']:.1f} ms"
                      + (f"; server CPU {cost['waiting_server_cpu_ms']:.2f} ms a request against "
                         f"{cost['bare_server_cpu_ms']:.2f}" if "waiting_server_cpu_ms" in cost else ""))
        if not args.answers_only:
            figures["within_1_5x_login"] = all(figures[f"{name}_vs_login"] <= 1.5
                                               for name in ("warring_planets", "dream_odyssey"))
        uptime = os.getloadavg()
        figures["load_average_1_5_15"] = [round(load, 2) for load in uptime]
        say(args, f"Load average at the end: {uptime[0]:.2f}, {uptime[1]:.2f}, {uptime[2]:.2f} "
                  f"({os.cpu_count()} CPUs)")
        figures["answer_p95_under_1s"] = figures["answer_p95_ms"] < 1000
        figures["answer_throttled_p95_under_1s"] = figures["answer_throttled_p95_ms"] < 1000
        if args.json:
            print(json.dumps({k: round(v, 2) if isinstance(v, float) else v for k, v in figures.items()}))
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
