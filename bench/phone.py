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
  page (its move in the log), ``--answers`` times, p50 and p95, once without throttling
  (the issue's figure: the answer is made 0.2-0.3 s after the move, and showed 3.0 s
  after it) and once with it; with, for each, when the worker committed the computer's
  move (after the player's), when the move's own answer arrived (after the click), and
  how many of the computer's moves came in that answer.  Target: p95 under 1 s.  Both
  as the site answered before (a second server with ``COMPUTER_ANSWER_WAIT_MS=0``: the
  move's answer at once, and the page's fast poll finds the computer's move, two round
  trips with the throttling's 400 ms of latency) and as it answers now (the move's
  answer waits for a quick computer's move and brings it: one round trip), five moves
  on one then five on the other, so both meet the same load (``--no-before`` skips the
  first; ``--answers-only`` times nothing else).
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
  window.benchClicked = null; window.benchAnswered = null; window.benchInAnswer = null;
  // Whether the move's own answer was drawn after the computer's move (its log entry, or
  // the forms' version, holds the computer's move's number), or a poll brought it later.
  if (window.benchAfterPost) document.removeEventListener("htmx:afterRequest", window.benchAfterPost);
  window.benchAfterPost = (event) => {
    if (window.benchInAnswer !== null || !event.detail.requestConfig || event.detail.requestConfig.verb !== "post"
        || !event.detail.xhr) return;  // a poll's, or the badge's count's
    window.benchInAnswer = event.detail.xhr.responseText.includes(`value="${played + 1}"`);
  };
  document.addEventListener("htmx:afterRequest", window.benchAfterPost);
  performance.clearResourceTimings();  // its buffer holds 250 entries, and the fast poll fills it
  document.addEventListener("click", (event) => {
    if (event.target.closest("form.move-form button")) window.benchClicked = performance.now();
  }, {capture: true, once: true});
  window.benchWatch = new MutationObserver(() => {
    if (window.benchClicked === null || window.benchAnswered !== null) return;
    const numbers = [...document.querySelectorAll("#log .log-list li[value]")].map((entry) => +entry.value);
    if (numbers.some((number) => number > played)) window.benchAnswered = performance.now();
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
                        help="skip the computer's answers timed as before (COMPUTER_ANSWER_WAIT_MS=0)")
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
    if throttled:
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", SLOW_NETWORK)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": SLOW_CPU})
    return context, page


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


# From the click to the last byte of the move's own answer (the POST's XHR).
MOVE_ANSWER_RECEIVED = """() => {
  const posts = performance.getEntriesByType("resource").filter((r) => r.name.endsWith("/move/")
    && r.startTime >= window.benchClicked);
  return posts.length ? posts[posts.length - 1].responseEnd - window.benchClicked : null;
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


def answer_times(browser, base: str, games: dict, samples: int,
                 throttled: bool) -> tuple[list[float], list[str], list[float], list[float], int]:
    """Milliseconds from the click on a move that hands the turn to the computer to its
    answer on the page, ``samples`` times, in games against the computer; the pages
    where a move loaded the page anew instead (none, while htmx works); and the
    milliseconds from the player's move committed to the computer's (the worker's part);
    and from the click to the end of the move's own answer (the network's and server's
    part; the rest is the page's, or a poll's); and how many of the computer's answers
    came in the move's own answer."""
    from games.models import Game, Move

    alice, level = games["alice"], games["level"]
    choose = random.Random(42)
    timed: list[float] = []
    untimed: list[str] = []
    thinks: list[float] = []
    received: list[float | None] = []
    in_answer: list[bool] = []
    context, page = new_page(browser, base, games["alice_session"], throttled)
    if os.environ.get("BENCH_DEBUG"):  # every request the page makes, with when
        page.on("request", lambda r: print(f"{time.monotonic():.2f} {r.method} {r.url}", file=sys.stderr))
    seed = 100
    game = None
    try:
        while len(timed) < samples:
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
            click_move(page, game, move)
            if rules.to_act(after) == [1]:  # the computer's turn: time its answer
                # (or the page was loaded anew, its watch gone: then it is not timed, but counted)
                page.wait_for_function("() => typeof window.benchAnswered === 'number' || !window.benchWatch",
                                       timeout=60_000)
                took = page.evaluate("typeof window.benchAnswered === 'number' && typeof window.benchClicked === "
                                     "'number' ? window.benchAnswered - window.benchClicked : null")
                received.append(page.evaluate(MOVE_ANSWER_RECEIVED))
                in_answer.append(page.evaluate("window.benchInAnswer === true"))
                if took is None:
                    untimed.append(page.url)
                else:
                    timed.append(took)
                    # When the worker committed the computer's move, after the player's.
                    made = dict(Move.objects.filter(game=game, number__in=(game.version + 1, game.version + 2))
                                .values_list("number", "created_at"))
                    if len(made) == 2:
                        thinks.append((made[game.version + 2] - made[game.version + 1]).total_seconds() * 1000)
                    if os.environ.get("BENCH_DEBUG"):  # each answer: shown, its move's answer received, computer
                        print(f"answer {took:.0f} ms, received {received[-1] or 0:.0f} ms, in it {in_answer[-1]}, computer "
                              f"{thinks[-1] if len(made) == 2 else 0:.0f} ms", file=sys.stderr)
            else:  # a move that leaves the turn with the player (or ends the game): on the page
                page.locator(f'#log .log-list li[value="{game.version + 1}"]').wait_for()
    finally:
        context.close()
    return timed, untimed, thinks, [r for r in received if r is not None], sum(in_answer)


# Moves timed against one server before the bench turns to the other (before/after).
ANSWERS_IN_TURN = 5


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(round(len(ordered) * 0.95)) - 1)]


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
        # The site as it answered before its moves waited for a quick computer's (the
        # page's fast poll finds the computer's move), beside it on the next port.
        if not args.no_before:
            start_server(args.port + 1, {"COMPUTER_ANSWER_WAIT_MS": "0"})
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
                  f"{SLOW_NETWORK['latency']} ms latency, 400 kbit/s.")
        figures: dict = {"warring_move": duel.version, "dream_move": dream.version}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            try:
                pages = {"login": ("/accounts/login/", None), "warring_planets": (f"/games/{duel.pk}/", duel_session),
                         "dream_odyssey": (f"/games/{dream.pk}/", dream_session)}
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
                bases = {True: base} if args.no_before else {False: f"http://127.0.0.1:{args.port + 1}", True: base}
                for throttled in (False, True):
                    found = {waits: ([], [], [], [], 0) for waits in bases}
                    while any(len(found[waits][0]) < args.answers for waits in bases):
                        for waits, at in bases.items():
                            more = answer_times(browser, at, games, min(ANSWERS_IN_TURN, args.answers), throttled)
                            found[waits] = tuple(old + new for old, new in zip(found[waits], more))
                    for waits, (times, untimed, thinks, received, in_answer) in found.items():
                        key = ("answer_throttled" if throttled else "answer") + ("" if waits else "_before")
                        figures.update({f"{key}_p50_ms": statistics.median(times), f"{key}_p95_ms": p95(times),
                                        f"{key}_max_ms": max(times), f"{key}_samples": len(times),
                                        f"{key}_reloads": len(untimed),
                                        f"{key}_computer_p50_ms": statistics.median(thinks),
                                        f"{key}_computer_p95_ms": p95(thinks),
                                        f"{key}_move_received_p50_ms": statistics.median(received),
                                        f"{key}_move_received_p95_ms": p95(received),
                                        f"{key}_in_the_moves_answer": in_answer})
                        say(args, f"computer's answer on the page, {'throttled' if throttled else 'unthrottled'}"
                                  f"{'' if waits else ' (before: no wait for it)'}: "
                                  f"p50 {statistics.median(times):.0f} ms, p95 {p95(times):.0f} ms, "
                                  f"max {max(times):.0f} ms; its move committed p50 {statistics.median(thinks):.0f} "
                                  f"ms, p95 {p95(thinks):.0f} ms after the player's; the move's answer received p50 "
                                  f"{statistics.median(received):.0f} ms, p95 {p95(received):.0f} ms; {in_answer} of "
                                  f"{len(times)} in the move's own answer"
                                  + (f"; {len(untimed)} loaded the page anew: {untimed}" if untimed else ""))
            finally:
                browser.close()
        cost = poll_cost(args.port, server.pid, games["alice_session"])
        figures.update(cost)
        say(args, "The count every page polls for (300 requests one after another, no throttling): "
                  f"/games/waiting/ p50 {cost['waiting_p50_ms']:.1f} ms, p95 {cost['waiting_p95_ms']:.1f} ms; "
                  f"/bench/bare p50 {cost['bare_p50_ms']:.1f} ms, p95 {cost['bare_p95_ms']:.1f} ms"
                  + (f"; server CPU {cost['waiting_server_cpu_ms']:.2f} ms a request against "
                     f"{cost['bare_server_cpu_ms']:.2f}" if "waiting_server_cpu_ms" in cost else ""))
        if not args.answers_only:
            figures["within_1_5x_login"] = all(figures[f"{name}_vs_login"] <= 1.5
                                               for name in ("warring_planets", "dream_odyssey"))
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
