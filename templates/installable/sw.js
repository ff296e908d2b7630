{% autoescape off %}// Sefirot Online's service worker (sefirot_site/installable.py). It caches only what is
// the same for everyone: the offline page and the files it needs. Pages are never cached.
"use strict";
const CACHE = "sefirot-{{ version }}";
const OFFLINE = "{{ offline_url|escapejs }}";
const KEPT = [OFFLINE{% for asset in assets %}, "{{ asset|escapejs }}"{% endfor %}];
const ICON = "{{ icon|escapejs }}";
const BADGE = "{{ badge|escapejs }}";

self.addEventListener("install", (event) => {
  // Fetched without cookies: nothing a signed-in player sees may land in the cache.
  event.waitUntil(caches.open(CACHE)
    .then((cache) => cache.addAll(KEPT.map((url) => new Request(url, {credentials: "omit"}))))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  // The page's request goes out while the worker starts, so a page costs no more for it.
  const preload = self.registration.navigationPreload ? self.registration.navigationPreload.enable() : Promise.resolve();
  event.waitUntil(preload.then(() => caches.keys())
    .then((names) => Promise.all(names.filter((name) => name.startsWith("sefirot-") && name !== CACHE)
      .map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // Always from the network; the offline page only when there is none.
    event.respondWith(Promise.resolve(event.preloadResponse).then((preloaded) => preloaded || fetch(request))
      .catch(() => caches.match(OFFLINE)));
  } else if (KEPT.includes(new URL(request.url).pathname)) {
    event.respondWith(fetch(request).catch(() => caches.match(request, {ignoreVary: true})));
  }
});

// A push from the site (games.push.payloads): the game, its address, people by name.
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = {body: event.data.text()};
  }
  event.waitUntil(self.registration.showNotification(data.title || "Sefirot Online", {
    body: data.body || "",
    tag: data.tag || "sefirot",
    renotify: Boolean(data.tag),
    icon: ICON,
    badge: BADGE,
    data: {url: data.url || "/"},
  }));
});

// A click opens the game: the tab that shows it already, else a new one; a browser that
// will not open one (it allows it only in the moments after a real click) takes a tab of
// the site there instead. The address is taken on this site's own origin, so a payload
// cannot send a click anywhere else.
function openGame(data) {
  const named = new URL((data && data.url) || "/", self.location.origin);
  const url = new URL(named.pathname + named.search, self.location.origin).href;
  return self.clients.matchAll({type: "window", includeUncontrolled: true}).then((windows) => {
    const showing = windows.find((client) => client.url === url);
    if (showing) return showing.focus().catch(() => showing);
    return self.clients.openWindow(url).then((opened) => opened || Promise.reject(new Error("no window")))
      .catch(() => {
        const tab = windows.find((client) => "navigate" in client);
        return tab ? tab.navigate(url).then((moved) => moved && moved.focus().catch(() => moved)) : null;
      });
  });
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const opening = openGame(event.notification.data);
  // Keeps the worker alive until the tab is there. Only the browser's own events take it:
  // one a script dispatched (a test's) has nothing to wait for.
  if (event.isTrusted) event.waitUntil(opening);
});
{% endautoescape %}
