// /api/docs: filters the operations as you type, with the same rule as the server's ?q= (every
// word must appear); pressing Enter still asks the server, so the page works without this file.
(function () {
  "use strict";
  var input = document.getElementById("api-q");
  var count = document.getElementById("api-docs-count");
  if (!input || !count) return;
  var operations = Array.prototype.slice.call(document.querySelectorAll(".api-op[data-search]"));
  var groups = Array.prototype.slice.call(document.querySelectorAll(".api-group"));
  var original = count.textContent;

  function apply() {
    var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    operations.forEach(function (op) {
      var text = op.getAttribute("data-search");
      var match = words.every(function (word) { return text.indexOf(word) !== -1; });
      op.hidden = !match;
      var entry = document.querySelector('[data-toc="' + op.id + '"]');
      if (entry) entry.hidden = !match;
      if (match) shown += 1;
    });
    groups.forEach(function (group) {
      var visible = group.querySelector(".api-op:not([hidden])") !== null;
      group.hidden = !visible;
      var entry = document.querySelector('[data-toc-group="' + group.id + '"]');
      if (entry) entry.hidden = !visible;
    });
    count.textContent = words.length === 0 ? original : shown + " of " + operations.length + " operations match.";
  }

  input.addEventListener("input", apply);
})();
