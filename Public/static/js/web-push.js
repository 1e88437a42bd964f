// Settings: "Turn on notifications" for this browser. Registers the service worker (/sw.js),
// asks for permission, subscribes with the server's VAPID key and stores the subscription;
// "Turn off" unsubscribes and forgets it. Browsers without push keep the block hidden.
(function () {
  'use strict';
  var box = document.getElementById('web-push');
  // iOS delivers Web Push only to a web app on the Home Screen: in Safari, say how to get there.
  var iOS = /iPad|iPhone|iPod/.test(navigator.userAgent) || (navigator.platform === 'MacIntel' && navigator.maxTouchPoints > 1);
  var standalone = navigator.standalone === true || (window.matchMedia && window.matchMedia('(display-mode: standalone)').matches);
  var hint = document.getElementById('ios-home-screen-hint');
  if (iOS && !standalone && hint) { hint.hidden = false; return; }
  if (!box || !box.dataset.key || !('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) return;
  var status = document.getElementById('web-push-status');
  var enable = document.getElementById('web-push-enable');
  var disable = document.getElementById('web-push-disable');
  var tokenInput = document.querySelector('#notifications-form input[name="csrfToken"]');
  var token = tokenInput ? tokenInput.value : '';
  box.hidden = false;

  function keyBytes(base64url) {
    var padded = (base64url + '===='.slice(base64url.length % 4)).replace(/-/g, '+').replace(/_/g, '/');
    var raw = atob(padded);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function post(path, body) {
    return fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'Accept': 'application/json', 'X-CSRF-Token': token },
      body: JSON.stringify(body)
    }).then(function (response) {
      if (!response.ok) throw new Error('the server answered ' + response.status);
      return response;
    });
  }

  function show(on, message) {
    box.dataset.state = on ? 'on' : 'off';
    enable.hidden = on;
    disable.hidden = !on;
    status.textContent = message || (on ? 'Notifications are on on this browser.' : 'Notifications are off on this browser.');
  }

  function registration() {
    return navigator.serviceWorker.register('/sw.js', { scope: '/' }).then(function () { return navigator.serviceWorker.ready; });
  }

  if (Notification.permission === 'denied') {
    enable.disabled = true;
    show(false, 'This browser blocks notifications from us; allow them in its site settings first.');
    return;
  }
  navigator.serviceWorker.getRegistration('/').then(function (existing) {
    if (!existing) return show(false);
    return existing.pushManager.getSubscription().then(function (subscription) { show(!!subscription); });
  });

  enable.addEventListener('click', function () {
    enable.disabled = true;
    status.textContent = 'Turning notifications on…';
    Notification.requestPermission().then(function (permission) {
      if (permission !== 'granted') throw new Error('permission ' + permission);
      return registration();
    }).then(function (ready) {
      return ready.pushManager.getSubscription().then(function (subscription) {
        return subscription || ready.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.key) });
      });
    }).then(function (subscription) {
      return post('/settings/web-push', subscription.toJSON());
    }).then(function () {
      enable.disabled = false;
      show(true);
    }).catch(function (error) {
      enable.disabled = false;
      show(false, String(error && error.message).indexOf('permission') === 0
        ? 'Notifications need your permission; nothing was turned on.'
        : 'Notifications could not be turned on here; try again later.');
    });
  });

  disable.addEventListener('click', function () {
    disable.disabled = true;
    navigator.serviceWorker.ready.then(function (ready) {
      return ready.pushManager.getSubscription();
    }).then(function (subscription) {
      if (!subscription) return;
      var endpoint = subscription.endpoint;
      return subscription.unsubscribe().then(function () { return post('/settings/web-push/remove', { endpoint: endpoint }); });
    }).then(function () {
      disable.disabled = false;
      show(false);
    }).catch(function () {
      disable.disabled = false;
      status.textContent = 'Notifications could not be turned off; try again.';
    });
  });
})();
