// Forms that ask before they send (data-confirm="question"): a submit the person cancels
// goes nowhere. An attribute and this listener rather than an inline onsubmit, which the
// site's Content-Security-Policy does not run; without JavaScript the form just sends.
document.addEventListener("submit", (event) => {
  const question = event.target.getAttribute && event.target.getAttribute("data-confirm");
  if (question && !window.confirm(question)) event.preventDefault();
}, true);

// A control an answer drew a moment ago is made live by htmx only at that answer's settle,
// a timer later (longer on a slow phone), though the focus is back on it at once (below).
// A key or a press on it before then would follow its link, a whole page load that drops
// the focus, instead of asking for its region: so it is made live first, as htmx would a
// moment later (htmx.process leaves a control it already made live as it is).
const makeLive = (event) => {
  const control = window.htmx && event.target.closest && event.target.closest("[hx-get], [hx-post]");
  if (control) htmx.process(control);
};
document.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") makeLive(event); }, true);
document.addEventListener("pointerdown", makeLive, true);

// A link drawn as a toggle button (a card to pick: role="button" aria-pressed) answers Space
// as a button does; a link answers only Enter by itself.
document.addEventListener("keydown", (event) => {
  if (event.key !== " " || event.altKey || event.ctrlKey || event.metaKey) return;
  const toggle = event.target.closest && event.target.closest('a[role="button"]');
  if (toggle) { event.preventDefault(); toggle.click(); }
});

// htmx and refusals, for every page of the site (issue 38).  A refused request answers
// 400 (bad input) or 409 (stale: someone moved first), drawn as the region(s) the form
// updates, with the message in them: htmx swaps it as it swaps any answer, and it is no
// failure of the page (htmx's default leaves 4xx unswapped and logs an error).  Any
// other 4xx (an expired session's 403, a 404 for what is gone, a 429) is not drawn for
// a region, so nothing is swapped: the site's message line says what happened, and the
// page stays as it was.  A 5xx, or no answer at all, is said there too and stays an
// error.  Without JavaScript none of this runs: forms post and the whole page answers.
if (window.htmx) {
  htmx.config.responseHandling = [
    { code: "204", swap: false },
    { code: "[23]..", swap: true },
    { code: "40[09]", swap: true },
    { code: "4..", swap: false },
    { code: "...", swap: false, error: true },
  ];
}
(function () {
  const said = {
    403: "That was refused: you may have logged out or in elsewhere. Reload the page and try again.",
    404: "That is no longer here. Reload the page to see where things stand.",
    429: "Too many tries in a short time: wait a little, then try again.",
  };
  const say = (text) => {
    const region = document.getElementById("messages");
    if (!region) return;
    region.querySelectorAll("[data-htmx-refusal]").forEach((old) => old.remove());
    if (!text) return;
    const line = document.createElement("p");
    line.className = "message message--error";
    line.setAttribute("role", "alert");
    line.dataset.htmxRefusal = "";
    line.textContent = text;
    region.append(line);
  };
  document.addEventListener("htmx:afterRequest", (event) => {
    const status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (status >= 400 && status < 500 && status !== 400 && status !== 409) {
      say(said[status] || `That was refused (${status}). Reload the page and try again.`);
    } else if (status >= 500) {
      say("Something went wrong on the site. Try again in a moment.");
    } else if (status && event.detail.requestConfig && event.detail.requestConfig.verb !== "get") {
      say("");  // a form's next answer: what went wrong before is past
    }
  });
  document.addEventListener("htmx:sendError", () => say("The site could not be reached. Check your connection and try again."));
})();

// A form's answer is swapped into the regions of the page that sent it; were the page's
// own refresh (a poll's GET) to swap fresh regions in while the form's request is on its
// way, the form would be gone from the page and its answer, a refusal say, with it (htmx
// then finds none of its regions).  So while a form sends, refreshes wait: one about to
// start does not, and one that comes back meanwhile is not swapped; the next poll brings
// what they would have, and the form's answer is drawn from the fresh state anyway.
// A link the player follows meanwhile (a card picked for the next move while the last
// one's answer is on its way) is theirs, not a refresh, and must not be lost: it waits
// for the form's answer and is then followed in the page that answer drew, if that page
// still has it (the same address: the same card to pick).  Lost, it was a click that did
// nothing, seen at a six-seat table of quick computer players.
(function () {
  const sending = () => document.querySelector("form.htmx-request:not([hx-get])") !== null;
  const isGet = (event) => event.detail.requestConfig && event.detail.requestConfig.verb === "get";
  const followed = (event) => event.detail.elt instanceof Element && event.detail.elt.matches("a[hx-get]");
  const refresh = (event) => isGet(event) && !followed(event);
  let waiting = null;  // the address of a link followed while a form sent
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (!isGet(event) || !sending()) return;
    event.preventDefault();
    if (followed(event)) waiting = event.detail.elt.getAttribute("href");
  });
  document.addEventListener("htmx:beforeSwap", (event) => {
    if (refresh(event) && sending()) event.detail.shouldSwap = false;
  });
  document.addEventListener("htmx:afterRequest", () => {
    if (waiting === null) return;
    setTimeout(() => {  // once htmx has marked the form's request ended
      if (waiting === null || sending()) return;
      const link = document.querySelector(`a[hx-get][href="${CSS.escape(waiting)}"]`);
      waiting = null;
      if (link) link.click();
    });
  });
})();

// The count of games waiting for your move (issue 42), on every page: the navigation's
// badge asks games:waiting for it every few seconds (base.html), and a game page's own
// poll and move answers bring it too, each as a "turn-count" event; the badge and the
// "(2) " before the page title follow it.  A page out of sight (another tab, a phone's
// locked screen) does not ask; it asks at once when it is seen again.
document.addEventListener("turn-count", (event) => {
  const count = Number(event.detail.value) || 0;
  const badge = document.getElementById("turn-count");
  if (badge) {
    badge.hidden = count === 0;
    badge.lastChild.textContent = String(count);
  }
  document.title = (count ? `(${count}) ` : "") + document.title.replace(/^\(\d+\) /, "");
});
document.addEventListener("htmx:beforeRequest", (event) => {
  if (event.detail.elt.id === "turn-count" && document.hidden) event.preventDefault();
});

// Motion: whoever asks their system for less of it gets none. site.css turns transitions
// and animations off; htmx's own settle pause (20 ms, for its CSS transitions) goes too.
if (window.htmx && window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches) {
  htmx.config.defaultSwapDelay = 0;
  htmx.config.defaultSettleDelay = 0;
}

// Focus across htmx swaps (WCAG 2.4.3): an answer that redraws the control a keyboard
// user was on (a card they picked, a region polled afresh) would drop their focus to the
// page's start.  The control is found again in the new markup (by its id, the card it
// picks, its form's move or button, its key or its address), else the focus goes to the
// region it was in (the region's own heading, or the region itself: not its first
// control, which a second Enter pressed at once would set off), else to the main content.
// What the new regions say (a refusal, a notice) is read out by the page's live region,
// #messages.
//
// The page has several requests on the way at once (its poll, the navigation's count, a
// pick or a move) and htmx draws an answer in two steps, the swap and, a timer later, the
// settle.  So the control is remembered as the focus reaches it (and again as each answer
// comes), never forgotten because some answer found the focus already dropped, and it is
// put back right after the swap that removed it, before any other answer, key or check
// can find the focus on <body>; the settle and the request's end only look again.  (It
// was once remembered by each answer and put back at the settle: an answer landing
// between a swap and its settle, such as the count's every five seconds on a loaded
// machine, found the focus on <body> and wiped what was to be put back.)
(function () {
  let held = null;
  const inPage = (element) => element && element !== document.body && element !== document.documentElement &&
    element.isConnected;
  const describe = (element) => {
    const card = element.matches("a.pick") && element.querySelector("[data-card]");
    const form = element.form || element.closest("form");
    const move = form && form.querySelector("input[name=move]");
    const regions = [];
    for (let node = element.parentElement; node; node = node.parentElement) if (node.id) regions.push(node.id);
    return { element, id: element.id, card: card && card.dataset.card, move: move && move.value,
             action: form && form.getAttribute("action"), name: element.name, value: element.value,
             key: element.dataset.key, href: !card && element.matches("a[href]") && element.getAttribute("href"), regions };
  };
  const hold = () => { if (inPage(document.activeElement)) held = describe(document.activeElement); };
  // The candidates, nearest first: the same control, then the region it was in.
  function* again(old) {
    const within = old.regions.map((id) => document.getElementById(id)).filter(Boolean);
    const first = (selector, test) => {
      for (const scope of [...within, document]) {
        for (const element of scope.querySelectorAll(selector)) if (!test || test(element)) return element;
      }
      return null;
    };
    if (old.id) yield document.getElementById(old.id);
    if (old.card) {
      const card = first(`a.pick [data-card="${CSS.escape(old.card)}"]`);
      yield card && card.closest("a.pick");
    }
    if (old.move) {
      const input = first("input[name=move]", (input) => input.value === old.move);
      yield input && input.form.querySelector("button");
    }
    if (old.action && old.name) {
      yield first(`form[action="${CSS.escape(old.action)}"] [name="${CSS.escape(old.name)}"]`,
                  (button) => button.value === old.value);
    }
    if (old.key) yield first(`[data-key="${CSS.escape(old.key)}"]`);
    if (old.href) yield first(`a[href="${CSS.escape(old.href)}"]`);
    for (const region of within) {
      yield region.querySelector(":scope > h1, :scope > h2, :scope > h3");
      yield region;
    }
    yield document.getElementById("main");
  }
  const focusOn = (element) => {
    if (!element || !element.isConnected || element.closest("[hidden], [inert]")) return false;
    // A heading or a region takes the focus only by script, and is left out of the Tab order.
    if (!element.matches("a[href], button, input, select, textarea, summary, [tabindex]")) {
      element.setAttribute("tabindex", "-1");
    }
    element.focus({ preventScroll: true });  // it is where the old one was, or around it
    return document.activeElement === element;
  };
  const keep = () => {
    const old = held;
    if (!old || inPage(document.activeElement) || old.element.isConnected) return;
    for (const next of again(old)) {
      if (focusOn(next)) { held = describe(next); return; }
    }
  };
  document.addEventListener("focusin", hold);
  document.addEventListener("htmx:beforeSwap", hold);
  document.addEventListener("htmx:oobBeforeSwap", hold);
  // Who moves the focus off a control on purpose (a click on the page's background) is
  // left there: only a control gone from the page is replaced.
  document.addEventListener("focusout", (event) => {
    const left = event.target;
    setTimeout(() => {
      if (held && held.element === left && left.isConnected && !inPage(document.activeElement)) held = null;
    });
  });
  document.addEventListener("htmx:afterSwap", keep);
  document.addEventListener("htmx:afterSettle", keep);
  document.addEventListener("htmx:afterRequest", keep);
  // A region's message (a refused move, a notice) said again in the live region, so a
  // screen reader reads it whatever region it came in.
  const sayAgain = (event) => {
    const region = document.getElementById("messages");
    const target = event.target;  // the new element swapped in (detail.target may be the old one)
    if (!region || !target || target === region || !target.querySelectorAll) return;
    const lines = [...target.querySelectorAll(".message, [role=alert]")].filter((line) => !region.contains(line))
      .map((line) => line.textContent.trim()).filter(Boolean);
    if (!lines.length) return;
    region.querySelectorAll("[data-region-said]").forEach((old) => old.remove());
    for (const text of lines) {
      const line = document.createElement("p");
      line.className = "visually-hidden";
      line.dataset.regionSaid = "";
      line.textContent = text;
      region.append(line);
    }
  };
  document.addEventListener("htmx:afterSettle", sayAgain);
  document.addEventListener("htmx:oobAfterSwap", sayAgain);
})();
