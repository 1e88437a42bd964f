// The signed-out home page shows the shops near the visitor when the browser lets the page use
// its position: if permission is already granted the page reloads at once with the position
// (rounded to about 100 m); if the browser would ask, a "Use my location" button asks only when
// pressed. Without permission or JavaScript the page stays on the city it shows.
(function () {
  "use strict";
  var page = document.getElementById("home-visitor");
  if (!page || page.getAttribute("data-position") !== "unknown" || !navigator.geolocation) return;
  var button = document.getElementById("home-use-location");

  function go() {
    navigator.geolocation.getCurrentPosition(function (position) {
      var lat = position.coords.latitude.toFixed(3);
      var lng = position.coords.longitude.toFixed(3);
      window.location.replace("/?lat=" + encodeURIComponent(lat) + "&lng=" + encodeURIComponent(lng));
    }, function () {
      if (button) button.hidden = true;
    }, { maximumAge: 600000, timeout: 10000 });
  }

  function offer() {
    if (!button) return;
    button.hidden = false;
    button.addEventListener("click", go);
  }

  if (navigator.permissions && navigator.permissions.query) {
    navigator.permissions.query({ name: "geolocation" }).then(function (status) {
      if (status.state === "granted") go();
      else if (status.state === "prompt") offer();
    }, offer);
  } else {
    offer();
  }
})();
