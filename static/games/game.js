// The game page: let htmx show the server's answer to a refused move (400 with the
// engine's message, 409 with the fresh board) instead of treating it as a failure.
document.addEventListener("htmx:beforeSwap", function (event) {
  var status = event.detail.xhr.status;
  if (status === 400 || status === 409) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});

// The history's stepper: ← and → step back and forth, Home and End jump; each key clicks
// the link marked with it (plain links, so the page works without this too).
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.target.closest("input, textarea, select")) return;
  const link = document.querySelector(`.stepper a[data-key="${event.key}"]`);
  if (link) { event.preventDefault(); link.click(); }
});

// The count of games waiting for your move, sent with every poll of the game page: the
// navigation's badge and the "(2) " before the page title follow it.
document.body.addEventListener("turn-count", (event) => {
  const count = Number(event.detail.value) || 0;
  const badge = document.getElementById("turn-count");
  if (badge) {
    badge.hidden = count === 0;
    badge.lastChild.textContent = String(count);
  }
  document.title = (count ? `(${count}) ` : "") + document.title.replace(/^\(\d+\) /, "");
});

// A chat line sent empties its box (was an hx-on attribute: htmx runs those through eval,
// which the Content-Security-Policy forbids).
document.body.addEventListener("htmx:afterRequest", (event) => {
  const form = event.detail.elt;
  if (event.detail.successful && form instanceof HTMLFormElement && form.hasAttribute("data-reset-after-send")) {
    form.reset();
  }
});

// The log's list scrolls in a box of its own: it shows its newest move, at its foot, when
// the page opens and whenever an answer adds to it, unless the reader has scrolled up to
// read earlier moves (then it stays where they are).
(function () {
  let readingEarlier = false;
  const atFoot = (list) => list.scrollHeight - list.scrollTop - list.clientHeight < 4;
  const toFoot = () => {
    const list = document.getElementById("log-list");
    if (list && !readingEarlier) list.scrollTop = list.scrollHeight;
  };
  document.addEventListener("scroll", (event) => {
    if (event.target.id === "log-list") readingEarlier = !atFoot(event.target);
  }, true);
  document.body.addEventListener("htmx:oobAfterSwap", toFoot);
  document.body.addEventListener("htmx:afterSettle", toFoot);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", toFoot);
  else toFoot();
})();
