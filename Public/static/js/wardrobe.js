// The closet grid (cut-outs swap in as they are made) and the outfit builder (pointer drags on
// a 4:5 canvas; works with a finger, a mouse or a pen). Plain JS, no framework.
(function () {
  'use strict';

  // Closet grid: ask for the pending items every 1.5 s until none is left.
  var grid = document.getElementById('closet-grid');
  if (grid) {
    var poll = function () {
      var pending = Array.prototype.map.call(grid.querySelectorAll('[data-cutout-status="pending"]'), function (tile) { return tile.dataset.item; });
      if (!pending.length) return;
      fetch('/closet/status?ids=' + pending.join(','), { credentials: 'same-origin', headers: { Accept: 'application/json' } })
        .then(function (response) { return response.ok ? response.json() : { items: [] }; })
        .then(function (body) {
          body.items.forEach(function (item) {
            if (item.status === 'pending') return;
            var tile = grid.querySelector('[data-item="' + item.id + '"]');
            if (!tile) return;
            tile.dataset.cutoutStatus = item.status;
            var link = tile.querySelector('a');
            var img = tile.querySelector('img.cutout');
            if (item.src) {
              if (!img) { img = document.createElement('img'); img.className = 'cutout'; link.insertBefore(img, link.firstChild); }
              img.src = item.src;
              img.alt = item.colours + ' ' + item.type;
            }
            var type = tile.querySelector('[data-type]');
            if (type) type.textContent = item.type;
            var state = tile.querySelector('[data-state]');
            if (state) state.textContent = item.status === 'ready' ? '' : 'No cut-out';
          });
        })
        .catch(function () {})
        .then(function () { setTimeout(poll, 1500); });
    };
    setTimeout(poll, 800);
  }

  // Outfit builder.
  var canvas = document.getElementById('outfit-canvas');
  var tray = document.getElementById('piece-tray');
  var form = document.getElementById('outfit-form');
  if (!canvas || !tray || !form) return;
  var tools = document.getElementById('piece-tools');
  var placed = [];
  var selected = null;
  var nextZ = 1;
  // Where a tapped piece goes, by garment type (fractions of the canvas), as on the server.
  var slots = {
    coat: [0.3, 0.34, 0.5], jacket: [0.3, 0.34, 0.5], top: [0.62, 0.28, 0.46], shirt: [0.62, 0.28, 0.46], 't-shirt': [0.62, 0.28, 0.46],
    sweater: [0.62, 0.28, 0.46], pants: [0.56, 0.66, 0.36], jeans: [0.56, 0.66, 0.36], shorts: [0.56, 0.66, 0.36], skirt: [0.56, 0.66, 0.36],
    dress: [0.55, 0.45, 0.5], shoes: [0.5, 0.91, 0.28], bag: [0.85, 0.62, 0.26], accessory: [0.15, 0.12, 0.2]
  };

  function draw(piece) {
    var box = canvas.getBoundingClientRect();
    piece.el.style.width = (piece.scale * 100) + '%';
    piece.el.style.left = (piece.x * 100) + '%';
    piece.el.style.top = (piece.y * 100) + '%';
    piece.el.style.zIndex = String(piece.z);
    piece.el.classList.toggle('selected', piece === selected);
    return box;
  }

  function select(piece) {
    selected = piece;
    placed.forEach(draw);
    tools.hidden = !piece;
  }

  function place(source, x, y) {
    var existing = placed.filter(function (p) { return p.id === source.dataset.item; })[0];
    if (existing) { existing.x = x; existing.y = y; select(existing); return; }
    var slot = slots[source.dataset.type] || [0.5, 0.5, 0.4];
    var el = document.createElement('img');
    el.src = source.dataset.src;
    el.alt = source.querySelector('img').alt;
    el.className = 'placed-piece';
    el.draggable = false;
    el.dataset.item = source.dataset.item;
    canvas.appendChild(el);
    var piece = { id: source.dataset.item, el: el, x: x === undefined ? slot[0] : x, y: y === undefined ? slot[1] : y, scale: slot[2], z: nextZ++ };
    placed.push(piece);
    source.classList.add('used');
    el.addEventListener('pointerdown', function (event) { startMove(piece, event); });
    select(piece);
  }

  function fraction(event) {
    var box = canvas.getBoundingClientRect();
    return { x: (event.clientX - box.left) / box.width, y: (event.clientY - box.top) / box.height,
      inside: event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom };
  }

  function clamp(value) { return Math.max(0, Math.min(1, value)); }

  function startMove(piece, event) {
    event.preventDefault();
    select(piece);
    piece.z = nextZ++;
    var start = fraction(event), origin = { x: piece.x, y: piece.y };
    function move(e) { var at = fraction(e); piece.x = clamp(origin.x + at.x - start.x); piece.y = clamp(origin.y + at.y - start.y); draw(piece); }
    function end() { document.removeEventListener('pointermove', move); document.removeEventListener('pointerup', end); }
    document.addEventListener('pointermove', move);
    document.addEventListener('pointerup', end);
  }

  // From the tray: a drag drops the piece where the pointer is let go; a tap places it by its slot.
  tray.querySelectorAll('.tray-piece').forEach(function (source) {
    source.addEventListener('pointerdown', function (event) {
      event.preventDefault();
      var ghost = source.querySelector('img').cloneNode();
      ghost.className = 'drag-ghost';
      document.body.appendChild(ghost);
      var startX = event.clientX, startY = event.clientY, moved = false;
      function follow(e) {
        if (Math.abs(e.clientX - startX) + Math.abs(e.clientY - startY) > 6) moved = true;
        ghost.style.left = e.clientX + 'px';
        ghost.style.top = e.clientY + 'px';
      }
      function drop(e) {
        document.removeEventListener('pointermove', follow);
        document.removeEventListener('pointerup', drop);
        ghost.remove();
        var at = fraction(e);
        if (!moved) place(source);
        else if (at.inside) place(source, clamp(at.x), clamp(at.y));
      }
      follow(event);
      document.addEventListener('pointermove', follow);
      document.addEventListener('pointerup', drop);
    });
  });

  // From the keyboard: Enter or Space on a piece's button places it by its slot (a pointer's click has a detail).
  tray.addEventListener('click', function (event) {
    var source = event.detail === 0 && event.target.closest('.tray-piece');
    if (source) place(source);
  });

  tools.querySelectorAll('[data-scale]').forEach(function (button) {
    button.addEventListener('click', function () {
      if (!selected) return;
      selected.scale = Math.max(0.08, Math.min(1.2, selected.scale * (button.dataset.scale === '1' ? 1.15 : 1 / 1.15)));
      draw(selected);
    });
  });
  document.getElementById('piece-remove').addEventListener('click', function () {
    if (!selected) return;
    selected.el.remove();
    var source = tray.querySelector('[data-item="' + selected.id + '"]');
    if (source) source.classList.remove('used');
    placed = placed.filter(function (p) { return p !== selected; });
    select(null);
  });

  form.addEventListener('submit', function () {
    document.getElementById('outfit-layout').value = JSON.stringify(placed.map(function (p) {
      return { closetItemId: p.id, x: +p.x.toFixed(4), y: +p.y.toFixed(4), scale: +p.scale.toFixed(4), z: p.z };
    }));
  });
})();
