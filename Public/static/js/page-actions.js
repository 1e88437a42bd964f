// Small page actions that the Content-Security-Policy (script-src 'self') would block as inline
// handlers: [data-print] buttons print the page; a select[data-autosubmit] submits its form when
// changed (its form keeps a button for browsers without scripts).
(function () {
  'use strict';
  document.querySelectorAll('[data-print]').forEach(function (button) {
    button.addEventListener('click', function () { window.print(); });
  });
  document.querySelectorAll('select[data-autosubmit]').forEach(function (select) {
    select.addEventListener('change', function () { if (select.form) { select.form.submit(); } });
  });
})();
