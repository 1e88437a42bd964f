// The store portal's crop box: each photo chosen in a file input gets a preview with a movable,
// resizable crop rectangle and rotate buttons. The choice travels with the upload as the fields
// crops[] ("x,y,width,height" on the upright photo, empty for the whole photo) and rotations[]
// (0, 90, 180, 270); the server does the cropping. Without this script photos upload as they are.
// An input with data-crop-square (a profile picture) keeps the rectangle square and starts it as the
// largest square in the middle of the photo.
(function () {
  'use strict';

  var MIN_SIDE = 64;

  function clamp(value, low, high) { return Math.max(low, Math.min(high, value)); }

  function hidden(name) {
    var input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = '';
    return input;
  }

  function button(label, className) {
    var b = document.createElement('button');
    b.type = 'button';
    b.className = 'btn ' + className;
    b.textContent = label;
    return b;
  }

  function cropper(file, index, square) {
    var figure = document.createElement('figure');
    figure.className = 'crop-item';
    figure.dataset.index = String(index);
    var frame = document.createElement('div');
    frame.className = 'crop-frame';
    var stage = document.createElement('div');
    stage.className = 'crop-stage';
    var img = document.createElement('img');
    img.alt = 'New photo ' + (index + 1) + ': ' + file.name;
    img.src = URL.createObjectURL(file);
    var box = document.createElement('div');
    box.className = 'crop-box';
    box.tabIndex = 0;
    box.setAttribute('role', 'slider');
    box.setAttribute('aria-label', 'Crop area of photo ' + (index + 1) + '. Arrow keys move it, Shift with arrow keys resizes it.');
    var handle = document.createElement('div');
    handle.className = 'crop-handle';
    box.appendChild(handle);
    stage.appendChild(img);
    stage.appendChild(box);
    frame.appendChild(stage);

    var cropField = hidden('crops[]');
    var rotationField = hidden('rotations[]');
    rotationField.value = '0';
    var caption = document.createElement('figcaption');
    var left = button('↺ Rotate left', 'rotate-left');
    var right = button('↻ Rotate right', 'rotate-right');
    var reset = button(square ? 'Centre' : 'Whole photo', 'btn-quiet crop-reset');
    var status = document.createElement('span');
    status.className = 'crop-status muted';
    caption.appendChild(left);
    caption.appendChild(right);
    caption.appendChild(reset);
    caption.appendChild(status);
    figure.appendChild(frame);
    figure.appendChild(caption);
    figure.appendChild(cropField);
    figure.appendChild(rotationField);

    var natural = { w: 0, h: 0 };
    var crop = { x: 0, y: 0, w: 0, h: 0 };
    var rotation = 0;

    function whole() {
      var side = Math.min(natural.w, natural.h);
      if (square) { setCrop((natural.w - side) / 2, (natural.h - side) / 2, side, side); } else { setCrop(0, 0, natural.w, natural.h); }
    }

    // A square grows or shrinks by the larger of the two movements.
    function resize(from, dx, dy) {
      if (square) { dx = dy = Math.abs(dx) > Math.abs(dy) ? dx : dy; }
      setCrop(from.x, from.y, from.w + dx, from.h + dy);
    }

    function scale() { return img.clientWidth / natural.w || 1; }

    function draw() {
      var s = scale();
      box.style.left = (crop.x * s) + 'px';
      box.style.top = (crop.y * s) + 'px';
      box.style.width = (crop.w * s) + 'px';
      box.style.height = (crop.h * s) + 'px';
      var whole = crop.x === 0 && crop.y === 0 && crop.w === natural.w && crop.h === natural.h;
      cropField.value = whole ? '' : [crop.x, crop.y, crop.w, crop.h].map(Math.round).join(',');
      rotationField.value = String(rotation);
      stage.className = 'crop-stage rotate-' + rotation;
      status.textContent = (whole ? 'Whole photo' : Math.round(crop.w) + ' × ' + Math.round(crop.h) + ' px') +
        (rotation ? ', turned ' + rotation + '°' : '');
      box.setAttribute('aria-valuetext', status.textContent);
    }

    function setCrop(x, y, w, h) {
      if (square) { w = h = Math.min(w, h, natural.w, natural.h); }
      w = clamp(w, Math.min(MIN_SIDE, natural.w), natural.w);
      h = clamp(h, Math.min(MIN_SIDE, natural.h), natural.h);
      crop = { x: clamp(x, 0, natural.w - w), y: clamp(y, 0, natural.h - h), w: w, h: h };
      draw();
    }

    img.addEventListener('load', function () {
      natural = { w: img.naturalWidth, h: img.naturalHeight };
      whole();
    });
    window.addEventListener('resize', draw);

    var drag = null;
    function startDrag(event, mode) {
      event.preventDefault();
      event.stopPropagation();
      drag = { mode: mode, startX: event.clientX, startY: event.clientY, crop: { x: crop.x, y: crop.y, w: crop.w, h: crop.h } };
      box.setPointerCapture(event.pointerId);
    }
    box.addEventListener('pointerdown', function (event) { startDrag(event, 'move'); });
    handle.addEventListener('pointerdown', function (event) { startDrag(event, 'resize'); });
    box.addEventListener('pointermove', function (event) {
      if (!drag) { return; }
      var s = scale();
      var dx = (event.clientX - drag.startX) / s;
      var dy = (event.clientY - drag.startY) / s;
      // The stage may be turned; pointer movement is turned back into the photo's own axes.
      var turned = [[dx, dy], [dy, -dx], [-dx, -dy], [-dy, dx]][rotation / 90];
      if (drag.mode === 'move') {
        setCrop(drag.crop.x + turned[0], drag.crop.y + turned[1], drag.crop.w, drag.crop.h);
      } else {
        resize(drag.crop, turned[0], turned[1]);
      }
    });
    function endDrag() { drag = null; }
    box.addEventListener('pointerup', endDrag);
    box.addEventListener('pointercancel', endDrag);

    box.addEventListener('keydown', function (event) {
      var step = Math.max(1, Math.round(Math.min(natural.w, natural.h) / 20));
      var moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
      var move = moves[event.key];
      if (!move) { return; }
      event.preventDefault();
      if (event.shiftKey) {
        resize(crop, move[0], move[1]);
      } else {
        setCrop(crop.x + move[0], crop.y + move[1], crop.w, crop.h);
      }
    });

    left.addEventListener('click', function () { rotation = (rotation + 270) % 360; draw(); });
    right.addEventListener('click', function () { rotation = (rotation + 90) % 360; draw(); });
    reset.addEventListener('click', whole);
    return figure;
  }

  function setup(input) {
    var list = document.getElementById(input.getAttribute('data-crop-list'));
    if (!list) { return; }
    input.addEventListener('change', function () {
      list.textContent = '';
      var square = input.hasAttribute('data-crop-square');
      Array.prototype.forEach.call(input.files, function (file, index) { list.appendChild(cropper(file, index, square)); });
    });
  }

  Array.prototype.forEach.call(document.querySelectorAll('input[type="file"][data-crop-list]'), setup);
})();
