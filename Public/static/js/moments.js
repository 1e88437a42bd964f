// Moments: the browser's position for quick moments and check-ins, and the live album.
(function () {
  'use strict';

  function locate(onFix, onError) {
    if (!navigator.geolocation) { onError('This browser cannot tell where you are.'); return; }
    navigator.geolocation.getCurrentPosition(
      function (position) { onFix(position.coords); },
      function (error) { onError(error.code === 1 ? 'Allow location access to continue.' : 'Your position is not available right now.'); },
      { enableHighAccuracy: true, timeout: 15000, maximumAge: 30000 });
  }

  function fill(form, coords) {
    var set = function (name, value) { var input = form.querySelector('[data-geo="' + name + '"]'); if (input) input.value = value; };
    set('lat', coords.latitude.toFixed(6));
    set('lng', coords.longitude.toFixed(6));
    set('accuracy', Math.round(coords.accuracy || 0));
  }

  // Forms that need a position ask for it when submitted.
  document.querySelectorAll('form[data-geolocate]').forEach(function (form) {
    var status = form.querySelector('[data-geo-status]');
    form.addEventListener('submit', function (event) {
      if (form.dataset.located === 'yes') return;
      event.preventDefault();
      if (status) status.textContent = 'Finding where you are…';
      locate(function (coords) {
        fill(form, coords);
        form.dataset.located = 'yes';
        form.submit();
      }, function (message) { if (status) status.textContent = message; });
    });
  });

  document.querySelectorAll('[data-fill-position]').forEach(function (button) {
    button.addEventListener('click', function () {
      locate(function (coords) { fill(button.form, coords); }, function (message) { button.textContent = message; });
    });
  });

  // The live album: new photos, deletions and faves arrive over the live socket.
  var page = document.getElementById('moment-page');
  var album = document.querySelector('[data-live-album]');
  if (!page || !album || !('WebSocket' in window)) return;
  var momentId = page.dataset.momentId;
  var channel = 'moment:' + momentId;
  var status = document.getElementById('live-status');
  var count = document.getElementById('photo-count');
  var comments = document.getElementById('comment-list');
  var delay = 1000;

  function bump(by) {
    if (!count) return;
    count.textContent = String(Math.max(0, (parseInt(count.textContent, 10) || 0) + by));
  }

  function tileFor(photo) {
    var jpegs = photo.photo.variants.filter(function (v) { return v.format === 'jpeg'; });
    var best = jpegs.filter(function (v) { return v.width >= 270; })[0] || jpegs[jpegs.length - 1];
    var item = document.createElement('li');
    item.className = 'album-tile fresh';
    item.dataset.photo = photo.id;
    var link = document.createElement('a');
    link.href = '/moments/' + momentId + '/photos/' + photo.id;
    var img = document.createElement('img');
    img.src = best ? best.url : '';
    img.alt = photo.caption || ('Photo by ' + photo.author.displayName);
    img.width = photo.photo.width;
    img.height = photo.photo.height;
    img.style.backgroundColor = photo.photo.dominantColor;
    link.appendChild(img);
    item.appendChild(link);
    return item;
  }

  function connect() {
    var socket = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/live');
    socket.onopen = function () { delay = 1000; socket.send(JSON.stringify({ type: 'subscribe', channel: channel })); };
    socket.onmessage = function (message) {
      var data = JSON.parse(message.data);
      if (data.type === 'subscribed' && data.channel === channel) { album.dataset.live = 'on'; if (status) status.textContent = 'Live'; }
      if (data.type !== 'event' || data.channel !== channel) return;
      if (data.event === 'photo.created' && !album.querySelector('[data-photo="' + data.data.id + '"]')) {
        album.insertBefore(tileFor(data.data), album.firstChild);
        var empty = document.getElementById('album-empty');
        if (empty) empty.remove();
        bump(1);
      } else if (data.event === 'photo.deleted') {
        var tile = album.querySelector('[data-photo="' + data.data.photoId + '"]');
        if (tile) { tile.remove(); bump(-1); }
      } else if (data.event === 'comment.created' && !data.data.photoId && comments &&
                 !comments.querySelector('[data-comment="' + data.data.id + '"]')) {
        var item = document.createElement('li');
        item.className = 'card comment';
        item.dataset.comment = data.data.id;
        var author = document.createElement('strong');
        author.textContent = data.data.author.displayName;
        var body = document.createElement('span');
        body.className = 'comment-body';
        body.textContent = ' ' + data.data.body;
        item.appendChild(author);
        item.appendChild(body);
        comments.appendChild(item);
      } else if (data.event === 'fave.changed') {
        var target = album.querySelector('[data-photo="' + data.data.targetId + '"] [data-fave-count]');
        if (target) target.textContent = '♥ ' + data.data.count;
        if (data.data.targetId === momentId) {
          var momentFaves = document.querySelector('#moment-fave [data-fave-count]');
          if (momentFaves) momentFaves.textContent = String(data.data.count);
        }
      }
    };
    socket.onclose = function () {
      album.dataset.live = 'off';
      if (status) status.textContent = 'Reconnecting…';
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    };
  }
  connect();
})();
