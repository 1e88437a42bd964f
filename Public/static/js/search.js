// The search page: filters open beside the results on wide screens, and a new sort applies at once.
(function () {
  "use strict";
  // Filters stay open beside the results on wide screens; on phones they fold away.
  var filters = document.getElementById("search-filters");
  if (filters && window.matchMedia("(min-width: 48rem)").matches) filters.open = true;
  // Changing the sort applies it at once.
  var sort = document.getElementById("sort");
  if (sort && sort.form) {
    sort.addEventListener("change", function () { sort.form.submit(); });
  }
})();
