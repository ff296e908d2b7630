// The site's service worker (sefirot_site/installable.py), on every page: it makes the site
// installable and shows its push notifications. A browser without one, or a page not on
// https (nor on this machine), goes without; nothing else depends on it.
(function () {
  "use strict";
  var script = document.currentScript;
  if (!("serviceWorker" in navigator) || !script) return;
  var url = script.dataset.worker;
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(url, {scope: "/"}).catch(function () {});
  });

  // A game page's mute switch (games/push), fetched only on a device that takes the site's
  // pushes: the page itself costs no query for it, and a player without pushes sees none.
  var mute = document.querySelector("[data-push-mute]");
  if (!mute || !("PushManager" in window)) return;
  navigator.serviceWorker.ready.then(function (registration) {
    return registration.pushManager.getSubscription();
  }).then(function (subscription) {
    if (subscription && window.htmx) {
      window.htmx.ajax("GET", mute.dataset.pushMute, {target: mute, swap: "innerHTML"});
    }
  }).catch(function () {});
})();
