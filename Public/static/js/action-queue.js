// Actions taken offline (issue 53): a like, a fave, a reaction, a "worn" mark. Each is a form post
// kept in IndexedDB with its own Idempotency-Key and sent when the browser is back online, by the
// service worker's Background Sync where the browser has it, else by the next page (app.js). The
// server keeps each key's first answer (IdempotencyMiddleware), so an action sent twice (its answer
// lost when the connection dropped again) is applied once. Loaded by pages and by the worker.
'use strict';
var AtelierQueue = (function () {
  var DB = 'atelier-actions', STORE = 'actions';

  function open() {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open(DB, 1);
      request.onupgradeneeded = function () { request.result.createObjectStore(STORE, { keyPath: 'key' }); };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function run(mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var transaction = db.transaction(STORE, mode);
        var result = work(transaction.objectStore(STORE));
        transaction.oncomplete = function () { db.close(); resolve(result && 'result' in result ? result.result : undefined); };
        transaction.onerror = function () { db.close(); reject(transaction.error); };
      });
    });
  }

  function newKey() {
    if (self.crypto && crypto.randomUUID) return crypto.randomUUID();
    return 'k' + Date.now().toString(16) + Math.random().toString(16).slice(2);
  }

  return {
    /** Keeps a form post to send later; `body` is its urlencoded fields. */
    add: function (url, body) {
      var action = { key: newKey(), url: url, body: body, queuedAt: Date.now() };
      return run('readwrite', function (store) { store.put(action); }).then(function () { return action; });
    },
    all: function () {
      return run('readonly', function (store) { return store.getAll(); }).then(function (actions) {
        return (actions || []).sort(function (a, b) { return a.queuedAt - b.queuedAt; });
      });
    },
    remove: function (key) { return run('readwrite', function (store) { store.delete(key); }); },
    clear: function () { return run('readwrite', function (store) { store.clear(); }); },
    /**
     * Sends what is queued, oldest first, each with its key. An answer of any kind (the server took
     * it, or refused it for good) takes it off the queue; a lost connection stops the replay and
     * keeps the rest, to be sent again with the same keys. Resolves to how many were sent.
     */
    replay: function () {
      return this.all().then(function (actions) {
        var sent = 0;
        return actions.reduce(function (previous, action) {
          return previous.then(function () {
            return fetch(action.url, {
              method: 'POST', body: action.body, credentials: 'same-origin', redirect: 'manual',
              headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Idempotency-Key': action.key }
            }).then(function (response) {
              // 409: the same key is still being handled (an earlier send): leave it for the next replay.
              if (response.status === 409 || response.status >= 500) throw new Error('not yet');
              sent += 1;
              return AtelierQueue.remove(action.key);
            });
          });
        }, Promise.resolve()).then(function () { return sent; }, function () { return sent; });
      });
    }
  };
})();
