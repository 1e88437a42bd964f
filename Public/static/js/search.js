// The search page: "Save search" sends the current search (the page's own query string).
(function () {
  "use strict";
  var field = document.getElementById("save-search-query");
  if (field) {
    var params = new URLSearchParams(window.location.search);
    params.delete("cursor");
    field.value = params.toString();
  }
  // Filters stay open beside the results on wide screens; on phones they fold away.
  var filters = document.getElementById("search-filters");
  if (filters && window.matchMedia("(min-width: 48rem)").matches) filters.open = true;
  // Changing the sort applies it at once.
  var sort = document.getElementById("sort");
  if (sort && sort.form) {
    sort.addEventListener("change", function () { sort.form.submit(); });
  }
})();
