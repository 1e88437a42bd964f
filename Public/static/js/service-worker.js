// The service worker (served at /sw.js by WebAppRoutes, so its scope is the whole site; the server
// fills in __VERSION__, a digest of the files below, and the __PRECACHE__ list). It keeps the app
// shell, a last good copy of the person's own pages, magazine issues saved for offline, sends the
// actions queued offline, and shows pushes.
'use strict';
importScripts('/static/js/action-queue.js');

var VERSION = '__VERSION__';
var SHELL = 'atelier-shell-' + VERSION;
var PAGES = 'atelier-pages';        // the signed-in person's pages, last good copy (cleared at sign-out)
var MAGAZINE = 'atelier-magazine';  // issues saved for offline (magazine-offline.js)
var PRECACHE = [__PRECACHE__];
// The person's own pages: opened offline, they show the last copy the browser saw.
var PERSONAL = [/^\/closet(\/|$)/, /^\/outfits(\/|$)/, /^\/ootd$/, /^\/posts\//, /^\/friends$/, /^\/calendar$/, /^\/cart$/,
  /^\/orders(\/|$)/, /^\/moments$/, /^\/notifications$/];

self.addEventListener('install', function (event) {
  event.waitUntil(caches.open(SHELL).then(function (cache) { return cache.addAll(PRECACHE); }).then(function () {
    return self.skipWaiting();
  }));
});

self.addEventListener('activate', function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf('atelier-shell-') === 0 && name !== SHELL;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function isPersonal(url) {
  return PERSONAL.some(function (pattern) { return pattern.test(url.pathname); });
}

function isMagazine(url) {
  return /^\/magazine\/(issues|articles)\//.test(url.pathname);
}

function offlinePage() {
  return caches.match('/offline', { cacheName: SHELL }).then(function (page) {
    return page || new Response('You are offline.', { status: 503, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  });
}

// A saved issue's page as saved, or in the language it was saved in (`?lang=` left out or another).
function savedMagazinePage(url) {
  return caches.match(url.href, { cacheName: MAGAZINE }).then(function (exact) {
    return exact || caches.match(url.href, { cacheName: MAGAZINE, ignoreSearch: true });
  });
}

// Network first; a personal page's good answer is kept (a redirect to sign-in drops the copy);
// without a network, the kept copy, else the offline page.
function navigate(event) {
  var request = event.request;
  var url = new URL(request.url);
  var personal = isPersonal(url);
  return fetch(request).then(function (response) {
    if (personal) {
      // The copy is taken now, before the page reads the body; written while the worker is kept alive.
      var html = (response.headers.get('Content-Type') || '').indexOf('text/html') === 0;
      var keep = response.ok && !response.redirected && html;
      var copy = keep ? response.clone() : null;
      event.waitUntil(caches.open(PAGES).then(function (cache) {
        return keep ? cache.put(url.href, copy) : cache.delete(url.href);
      }));
    }
    return response;
  }, function () {
    var kept = personal ? caches.match(url.href, { cacheName: PAGES })
      : isMagazine(url) ? savedMagazinePage(url) : Promise.resolve(undefined);
    return kept.then(function (copy) { return copy || offlinePage(); });
  });
}

self.addEventListener('fetch', function (event) {
  var request = event.request;
  if (request.method !== 'GET') return;
  var url = new URL(request.url);
  if (request.destination === 'image' && url.pathname.indexOf('/static/') !== 0) {
    // Pictures (ours or the media store's): a saved issue's come from its copy when the network is gone.
    event.respondWith(fetch(request).catch(function () {
      return caches.match(request.url, { cacheName: MAGAZINE, ignoreVary: true }).then(function (hit) {
        return hit || Response.error();
      });
    }));
    return;
  }
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    event.respondWith(navigate(event));
  } else if (url.pathname.indexOf('/static/') === 0 || url.pathname === '/manifest.webmanifest') {
    event.respondWith(caches.match(request, { cacheName: SHELL }).then(function (hit) { return hit || fetch(request); }));
  }
});

self.addEventListener('message', function (event) {
  if (event.data && event.data.type === 'signed-out') {
    event.waitUntil(Promise.all([caches.delete(PAGES), AtelierQueue.clear()]));
  }
});

// Background Sync: the browser wakes the worker once it is online again.
self.addEventListener('sync', function (event) {
  if (event.tag === 'atelier-actions') {
    event.waitUntil(AtelierQueue.replay().then(function () {
      return AtelierQueue.all().then(function (left) { if (left.length) throw new Error('retry later'); });
    }));
  }
});

self.addEventListener('push', function (event) {
  var message = {};
  try { message = event.data ? event.data.json() : {}; } catch (error) { message = { body: event.data ? event.data.text() : '' }; }
  var options = {
    body: message.body || 'You have a new notification.',
    icon: '/static/icons/icon-192.png',
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
