// The shopping list: "Start from where I am" asks the browser for its position and reloads the
// page with it, so the walk starts there instead of at the home location.
(function () {
  "use strict";
  var button = document.getElementById("use-location");
  if (!button || !navigator.geolocation) return;
  button.hidden = false;
  button.addEventListener("click", function () {
    button.disabled = true;
    button.textContent = "Finding you…";
    navigator.geolocation.getCurrentPosition(function (position) {
      var params = new URLSearchParams(window.location.search);
      params.set("lat", position.coords.latitude.toFixed(5));
      params.set("lng", position.coords.longitude.toFixed(5));
      window.location.search = params.toString();
    }, function () {
      button.disabled = false;
      button.textContent = "Location not available; try again";
    }, { enableHighAccuracy: false, timeout: 10000, maximumAge: 60000 });
  });
})();
