// The profile's "Notifications on your devices" (games/push): subscribes this browser with
// the site's VAPID key and hands the subscription to the site, or takes it back.
(function () {
  "use strict";
  var panel = document.getElementById("push-devices");
  if (!panel || !("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)
      || !window.isSecureContext) {
    return; // the panel's "cannot" line stays
  }
  panel.querySelector(".push-devices__unsupported").hidden = true;
  panel.querySelector(".push-devices__controls").hidden = false;
  var on = panel.querySelector('[data-push="on"]');
  var off = panel.querySelector('[data-push="off"]');
  var status = panel.querySelector(".push-devices__status");
  // The page's CSRF token, which every htmx request sends too.
  var csrf = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"];

  function applicationServerKey(text) {
    var base64 = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(base64), function (c) { return c.charCodeAt(0); });
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrf},
      body: JSON.stringify(body),
    }).then(function (response) {
      return response.json().then(function (answer) {
        if (!response.ok) throw new Error(answer.error || "the site refused it");
        return answer;
      });
    });
  }

  function showSubscribed(subscribed) {
    on.hidden = subscribed;
    off.hidden = !subscribed;
  }

  function registration() {
    return navigator.serviceWorker.ready;
  }

  registration().then(function (reg) { return reg.pushManager.getSubscription(); })
    .then(function (subscription) { showSubscribed(Boolean(subscription)); });

  on.addEventListener("click", function () {
    status.textContent = "Asking the browser…";
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") {
        throw new Error("this browser blocks the site's notifications; allow them in its site settings");
      }
      return registration();
    }).then(function (reg) {
      return reg.pushManager.getSubscription().then(function (existing) {
        return existing || reg.pushManager.subscribe({
          userVisibleOnly: true, applicationServerKey: applicationServerKey(panel.dataset.key),
        });
      });
    }).then(function (subscription) {
      return post(panel.dataset.subscribe, subscription.toJSON());
    }).then(function (answer) {
      showSubscribed(true);
      status.textContent = "Notifications are on for this device (" + answer.label + ").";
    }).catch(function (error) {
      status.textContent = "Notifications are not on: " + error.message + ".";
    });
  });

  off.addEventListener("click", function () {
    registration().then(function (reg) { return reg.pushManager.getSubscription(); }).then(function (subscription) {
      if (!subscription) return null;
      return post(panel.dataset.unsubscribe, {endpoint: subscription.endpoint}).then(function () {
        return subscription.unsubscribe();
      });
    }).then(function () {
      showSubscribed(false);
      status.textContent = "Notifications are off for this device.";
    }).catch(function (error) {
      status.textContent = "Notifications are still on: " + error.message + ".";
    });
  });
})();
