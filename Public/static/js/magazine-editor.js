// Magazine portal: the live preview of each language's Markdown. The server renders it with the
// same sanitising renderer readers get, so the returned HTML is put into the preview box as is.
(function () {
  'use strict';

  var form = document.getElementById('article-form');
  if (!form) return;
  var tokenInput = form.querySelector('input[name="csrfToken"]');
  var token = tokenInput ? tokenInput.value : '';

  document.querySelectorAll('textarea[data-preview]').forEach(function (area) {
    var box = document.getElementById(area.getAttribute('data-preview'));
    if (!box) return;
    var timer = null;
    var sent = 0;

    function render() {
      var ticket = ++sent;
      box.setAttribute('aria-busy', 'true');
      fetch('/portal/magazine/preview', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', 'Accept': 'application/json', 'X-CSRF-Token': token },
        body: JSON.stringify({ markdown: area.value })
      }).then(function (response) {
        if (!response.ok) throw new Error('preview ' + response.status);
        return response.json();
      }).then(function (body) {
        if (ticket !== sent) return; // a newer preview is on its way
        box.innerHTML = body.html;
        box.removeAttribute('aria-busy');
        box.setAttribute('data-rendered', String(ticket));
      }).catch(function () {
        if (ticket !== sent) return;
        box.removeAttribute('aria-busy');
        box.textContent = 'The preview is not available right now; your text is still here.';
      });
    }

    area.addEventListener('input', function () {
      if (timer) clearTimeout(timer);
      timer = setTimeout(render, 300);
    });
  });
})();
