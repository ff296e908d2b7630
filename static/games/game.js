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
