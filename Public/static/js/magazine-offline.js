// "Save for offline" on a magazine issue (issue 53): the issue page, its articles and the pictures
// this screen would load go into the 'atelier-magazine' cache, which the service worker reads when
// the network is gone. Saved issues share a space the reader sets (like the SDK's MagazineLibrary
// limits): the oldest saved issues make room, and an issue larger than the whole space is refused.
'use strict';
(function () {
  var box = document.getElementById('save-offline');
  if (!box || !window.caches || !('serviceWorker' in navigator)) return;
  var CACHE = 'atelier-magazine', INDEX = 'atelier-magazine-index', LIMIT = 'atelier-magazine-limit';
  var page = document.getElementById('issue-page');
  var issue = page.getAttribute('data-issue');
  var button = document.getElementById('save-issue');
  var limitField = document.getElementById('offline-limit');
  var status = document.getElementById('save-issue-status');

  function index() { try { return JSON.parse(localStorage.getItem(INDEX)) || []; } catch (e) { return []; } }
  function megabytes(bytes) { return (bytes / 1048576).toFixed(1) + ' MB'; }
  function limitBytes() { return Number(limitField.value) * 1048576; }

  function describe(note) {
    var saved = index(), total = saved.reduce(function (sum, entry) { return sum + entry.bytes; }, 0);
    var here = saved.some(function (entry) { return entry.issue === issue; });
    button.textContent = here ? 'Save again' : 'Save for offline';
    status.textContent = (note ? note + ' ' : '') + 'Kept on this device: ' + saved.length + (saved.length === 1 ? ' issue, ' : ' issues, ') +
      megabytes(total) + ' of ' + megabytes(limitBytes()) + '.';
  }

  // The candidate of a srcset this screen would pick: the narrowest at least as wide as the picture's pixels.
  function pick(srcset, target) {
    var candidates = srcset.split(',').map(function (part) {
      var bits = part.trim().split(/\s+/);
      return { url: bits[0], width: parseInt(bits[1], 10) || 0 };
    }).filter(function (c) { return c.url; }).sort(function (a, b) { return a.width - b.width; });
    for (var i = 0; i < candidates.length; i++) if (candidates[i].width >= target) return candidates[i].url;
    return candidates.length ? candidates[candidates.length - 1].url : null;
  }

  function pictures(html, base) {
    var doc = new DOMParser().parseFromString(html, 'text/html');
    var target = Math.min(window.innerWidth, window.innerWidth >= 960 ? 480 : window.innerWidth) * (window.devicePixelRatio || 1);
    var urls = [];
    doc.querySelectorAll('picture').forEach(function (picture) {
      var source = picture.querySelector('source[srcset]'), img = picture.querySelector('img');
      var chosen = source ? pick(source.getAttribute('srcset'), target) : img && img.getAttribute('srcset') ? pick(img.getAttribute('srcset'), target) : img && img.getAttribute('src');
      if (chosen) urls.push(new URL(chosen, base).href);
    });
    return urls;
  }

  function keep(cache, url, init) {
    return fetch(url, init).then(function (response) {
      if (!response.ok && response.type !== 'opaque') throw new Error(url + ' answered ' + response.status);
      return response.clone().blob().then(function (blob) {
        return cache.put(url, response).then(function () { return blob.size; });
      });
    });
  }

  function evict(cache, entries) {
    return Promise.all(entries.reduce(function (urls, entry) { return urls.concat(entry.urls); }, []).map(function (url) { return cache.delete(url); }));
  }

  function save() {
    button.disabled = true;
    status.textContent = 'Saving…';
    var pages = [location.href.split('#')[0]].concat(Array.prototype.map.call(document.querySelectorAll('#articles a[href]'), function (a) { return a.href; }));
    caches.open(CACHE).then(function (cache) {
      var bytes = 0, urls = [];
      return pages.reduce(function (previous, url) {
        return previous.then(function () {
          return fetch(url, { credentials: 'same-origin' }).then(function (response) {
            if (!response.ok) throw new Error(url + ' answered ' + response.status);
            return response.clone().text().then(function (html) {
              bytes += html.length;
              urls.push(url);
              return cache.put(url, response).then(function () { return pictures(html, url); });
            });
          }).then(function (images) {
            return images.reduce(function (done, image) {
              if (urls.indexOf(image) >= 0) return done;
              var sameOrigin = new URL(image).origin === location.origin;
              return done.then(function () {
                return keep(cache, image, sameOrigin ? { credentials: 'same-origin' } : { mode: 'no-cors' }).then(function (size) { bytes += size; urls.push(image); });
              });
            }, Promise.resolve());
          });
        });
      }, Promise.resolve()).then(function () {
        var others = index().filter(function (entry) { return entry.issue !== issue; });
        if (bytes > limitBytes()) {
          return evict(cache, [{ urls: urls.filter(function (url) { return !others.some(function (e) { return e.urls.indexOf(url) >= 0; }); }) }])
            .then(function () { describe('This issue needs ' + megabytes(bytes) + ': more than the space you set.'); });
        }
        var dropped = [];
        var total = function () { return others.reduce(function (sum, e) { return sum + e.bytes; }, 0); };
        while (others.length && total() + bytes > limitBytes()) dropped.push(others.shift());
        others.push({ issue: issue, urls: urls, bytes: bytes, savedAt: Date.now() });
        localStorage.setItem(INDEX, JSON.stringify(others));
        return evict(cache, dropped).then(function () {
          describe('Saved: ' + (pages.length - 1) + ' articles, ' + megabytes(bytes) + (dropped.length ? '; ' + dropped.length + ' older issue(s) removed to make room.' : '.'));
        });
      });
    }).catch(function (error) {
      describe('Not saved (' + (navigator.onLine ? error.message : 'you are offline') + ').');
    }).then(function () { button.disabled = false; });
  }

  limitField.value = localStorage.getItem(LIMIT) || limitField.value;
  limitField.addEventListener('change', function () { localStorage.setItem(LIMIT, limitField.value); describe(); });
  button.addEventListener('click', save);
  box.hidden = false;
  describe();
})();
