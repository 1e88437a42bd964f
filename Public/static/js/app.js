// The web as an app (issue 53), on every page: the service worker, the offline banner, actions
// queued while offline, "Install app", the product gallery's dots, and forgetting personal copies
// after sign-out. Plain script, no library (the Content-Security-Policy allows only our files).
'use strict';
(function () {
  // The offline page is the worker's, shown to whoever is here: it cannot say who is signed in.
  var offlinePage = !!document.getElementById('offline-page');
  var signedIn = document.body.getAttribute('data-signed-in') === 'true' || offlinePage;
  var signedOut = document.body.getAttribute('data-signed-in') === 'false' && !offlinePage;
  var banner = document.getElementById('offline-banner');
  var worker = 'serviceWorker' in navigator ? navigator.serviceWorker : null;

  function say(text) {
    if (!banner) return;
    banner.textContent = text;
    banner.hidden = false;
  }

  function showConnection() {
    if (!banner) return;
    if (navigator.onLine) { banner.hidden = true; return; }
    say('You are offline. Pages you opened before show their last copy; likes and reactions are sent when you are back.');
  }

  function replay() {
    if (!signedIn || !navigator.onLine || typeof AtelierQueue === 'undefined') return;
    AtelierQueue.replay().then(function (sent) {
      if (sent > 0) say(sent === 1 ? 'Sent 1 action you took offline.' : 'Sent ' + sent + ' actions you took offline.');
    });
  }

  // Everything this browser kept of the person who signed out: their pages and their queued actions.
  function forgetPerson() {
    if (worker && worker.controller) worker.controller.postMessage({ type: 'signed-out' });
    if (window.caches) caches.delete('atelier-pages');
    if (typeof AtelierQueue !== 'undefined') AtelierQueue.clear().catch(function () {});
  }

  if (worker) {
    worker.register('/sw.js').catch(function () {});
  }
  window.addEventListener('online', function () { showConnection(); replay(); });
  window.addEventListener('offline', showConnection);
  showConnection();
  if (signedIn) replay();
  if (signedOut) forgetPerson();

  var signOut = document.getElementById('signout-form');
  if (signOut) signOut.addEventListener('submit', forgetPerson);

  // A like, fave, reaction or "worn" mark made offline: kept, shown as done, sent later.
  document.querySelectorAll('form[data-offline-action]').forEach(function (form) {
    form.addEventListener('submit', function (event) {
      if (navigator.onLine || typeof AtelierQueue === 'undefined') return;
      event.preventDefault();
      var body = new URLSearchParams(new FormData(form)).toString();
      AtelierQueue.add(form.action, body).then(function () {
        var button = form.querySelector('button[aria-pressed]');
        if (button) button.setAttribute('aria-pressed', button.getAttribute('aria-pressed') === 'true' ? 'false' : 'true');
        // The next tap asks for the other state: a set-state form flips its value or its address.
        form.querySelectorAll('input[data-offline-flip]').forEach(function (input) {
          input.value = input.value === 'true' ? 'false' : 'true';
        });
        var next = form.getAttribute('data-offline-next');
        if (next) { form.setAttribute('data-offline-next', new URL(form.action).pathname); form.action = next; }
        form.classList.add('is-queued');
        say('Saved on this phone: it is sent when you are back online.');
        if (worker) {
          worker.ready.then(function (registration) {
            if (registration.sync) return registration.sync.register('atelier-actions');
          }).catch(function () {});
        }
      });
    });
  });

  // "Install app" where the browser offers it.
  var install = document.getElementById('install-app');
  var offer = null;
  window.addEventListener('beforeinstallprompt', function (event) {
    event.preventDefault();
    offer = event;
    if (install) install.hidden = false;
  });
  if (install) {
    install.addEventListener('click', function () {
      if (!offer) return;
      offer.prompt();
      offer.userChoice.then(function () { offer = null; install.hidden = true; });
    });
  }
  window.addEventListener('appinstalled', function () { if (install) install.hidden = true; });

  // A swipeable gallery's dots follow the photo in view.
  document.querySelectorAll('[data-gallery]').forEach(function (gallery) {
    var dots = document.querySelectorAll('[data-gallery-dot="' + gallery.id + '"]');
    if (!dots.length || !('IntersectionObserver' in window)) return;
    var observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        if (!entry.isIntersecting) return;
        var index = Array.prototype.indexOf.call(gallery.children, entry.target);
        dots.forEach(function (dot, i) {
          if (i === index) dot.setAttribute('aria-current', 'true'); else dot.removeAttribute('aria-current');
        });
      });
    }, { root: gallery, threshold: 0.6 });
    Array.prototype.forEach.call(gallery.children, function (slide) { observer.observe(slide); });
  });
})();
