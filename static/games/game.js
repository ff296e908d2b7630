// The history's stepper: ← and → step back and forth, Home and End jump; each key clicks
// the link marked with it (plain links, so the page works without this too).
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.target.closest("input, textarea, select")) return;
  const link = document.querySelector(`.stepper a[data-key="${event.key}"]`);
  if (link) { event.preventDefault(); link.click(); }
});

// A chat line sent empties its box (was an hx-on attribute: htmx runs those through eval,
// which the Content-Security-Policy forbids).  A refused line (400, swapped as an answer:
// site.js) stays in its box to be mended.
document.body.addEventListener("htmx:afterRequest", (event) => {
  const form = event.detail.elt;
  if (event.detail.xhr.status < 300 && form instanceof HTMLFormElement && form.hasAttribute("data-reset-after-send")) {
    form.reset();
  }
});

// The log's list scrolls in a box of its own: it shows its newest move, at its foot, when
// the page opens and whenever an answer adds to it, unless the reader had scrolled up to
// read earlier moves when the answer came (then it stays where they are).  Where the list
// was is read as each answer arrives, not from scroll events, which come a frame later.
(function () {
  let following = true;
  const logList = () => document.getElementById("log-list");
  const atFoot = (list) => list.scrollHeight - list.scrollTop - list.clientHeight < 4;
  const toFoot = () => {
    const list = logList();
    if (list && following) list.scrollTop = list.scrollHeight;
  };
  document.body.addEventListener("htmx:beforeSwap", () => {
    const list = logList();
    following = !list || atFoot(list);
  });
  // Answers bring the log out of band (its new entries, or the whole log), among a dozen
  // other parts: once they are all in, at the frame that shows them.  Reading the list's
  // height lays the page out, which at each swap cost a slow phone some 100 ms an answer
  // (bench/phone.py's BENCH_PROFILE).
  let queued = false;
  document.body.addEventListener("htmx:oobAfterSwap", () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; toFoot(); });
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", toFoot);
  else toFoot();
})();

// While a computer player thinks, the page asks every quarter second whether it has moved
// (its answer comes a fraction of a second after the move), but only for the seconds its
// poll says (data-fast-for): a worker that is down or slow then costs a poll every 3 s, as
// while a person thinks.  A poll drawn anew (the game moved on) starts its own count.
document.addEventListener("htmx:beforeRequest", (event) => {
  const poll = event.detail.elt;
  if (!poll.dataset || !poll.dataset.fastFor) return;
  const now = Date.now();
  poll.fastSince = poll.fastSince || now;
  if (now - poll.fastSince > Number(poll.dataset.fastFor) * 1000 && now - (poll.lastAsked || 0) < 3000) {
    event.preventDefault();
    return;
  }
  poll.lastAsked = now;
});

// The page's own refreshes never undo what its player did meanwhile.  A refresh is what
// the page asks by itself: its poll (#poll, whose fast form brings regions) and the fetch
// of its regions that the poll's "game-changed" sets off.  Its answer is drawn against the
// digests and the card picked (#pick-state) its request carried (games.page_regions), so
// one sent before a pick, or while the pick's own answer was on its way, was drawn with no
// card picked; landing after the pick, it swapped the hand and the page's pick-state out
// of band over the pick, and the card went back down (the server had it right).  So a
// refresh's answer is swapped only if none of the player's requests from the game (a
// pick, a move, a chat line, "Show earlier moves") was on its way when it was sent, nor
// began or ended before it came back.  Else the whole answer is let go at htmx:beforeSwap,
// out-of-band regions and digests alike (letting single parts go at oobBeforeSwap would
// leave a region and the digest the page holds of it apart), and the page asks again once
// the player's requests are answered, with the digests and the pick it holds then: the
// server sends only what still differs.
//
// Why not htmx's hx-sync on one element (#game): for a pick to win, it must abort the
// refresh on its way ("abort", "replace"), which htmx reports on the console as an error
// each time (htmx:sendAbort); queued behind it ("queue"), the pick is never sent when the
// refresh's answer redraws its card (htmx sends nothing from an element gone from the
// page); "drop" loses the click.  Why not the game's version: the pick is the page's own,
// not the server's, and a refresh drawn at the newest version lacks it all the same.
//
// htmx fires beforeSwap at the request's target (here its own element), and the fast
// poll's element is redrawn with #poll by the very answers this is about: an event at an
// element gone from the page never reaches the document.  So the guard listens at the
// target, and the player's requests are counted by their XMLHttpRequest's own end.
// Without JavaScript there is no poll: a link or a form loads the whole page.
(function () {
  let changes = 0;  // the player's requests from the game begun or ended so far
  let onTheirWay = 0;  // of those, still on their way
  let askAgain = false;
  const refreshAgain = () => {
    askAgain = false;
    htmx.trigger(document.body, "game-changed");
  };
  const isRefresh = (elt) => elt.closest("#poll") !== null || elt.getAttribute("hx-trigger") === "game-changed from:body";
  document.addEventListener("htmx:beforeSend", (event) => {
    const elt = event.detail.elt;
    const xhr = event.detail.xhr;
    if (!window.htmx || !(elt instanceof Element) || !elt.closest("#game")) return;
    if (!isRefresh(elt)) {
      onTheirWay += 1;
      changes += 1;
      xhr.addEventListener("loadend", () => {  // after htmx swapped the answer (at load)
        onTheirWay -= 1;
        changes += 1;
        if (!onTheirWay && askAgain) setTimeout(refreshAgain);
      });
      return;
    }
    const sentAt = onTheirWay ? -1 : changes;
    const target = event.detail.target || elt;
    const guard = (swap) => {
      if (swap.detail.xhr !== xhr || sentAt === changes) return;
      if (!swap.detail.shouldSwap || !swap.detail.serverResponse) return;  // a 204: nothing to draw
      swap.detail.shouldSwap = false;
      if (onTheirWay) askAgain = true;
      else setTimeout(refreshAgain);
    };
    target.addEventListener("htmx:beforeSwap", guard);
    xhr.addEventListener("loadend", () => target.removeEventListener("htmx:beforeSwap", guard));
  });
})();
