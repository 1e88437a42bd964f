// The service worker (served at /sw.js so its scope is the whole site): shows each push the
// server sends (decrypted by the browser) and opens its page when it is clicked.
'use strict';

self.addEventListener('push', function (event) {
  var message = {};
  try { message = event.data ? event.data.json() : {}; } catch (error) { message = { body: event.data ? event.data.text() : '' }; }
  var options = {
    body: message.body || 'You have a new notification.',
    data: { url: message.url || '/notifications' }
  };
  // A group's later pushes (one collapse id) replace its earlier one.
  if (message.topic) { options.tag = message.topic; options.renotify = true; }
  event.waitUntil(self.registration.showNotification(message.title || 'Atelier', options));
});

self.addEventListener('notificationclick', function (event) {
  event.notification.close();
  var target = new URL(event.notification.data && event.notification.data.url || '/notifications', self.location.origin);
  if (target.origin !== self.location.origin) target = new URL('/notifications', self.location.origin);
  event.waitUntil(self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(function (windows) {
    for (var i = 0; i < windows.length; i++) {
      if (windows[i].url === target.href && 'focus' in windows[i]) return windows[i].focus();
    }
    return self.clients.openWindow(target.href);
  }));
});

self.addEventListener('install', function () { self.skipWaiting(); });
self.addEventListener('activate', function (event) { event.waitUntil(self.clients.claim()); });
