// Infinite scroll for product grids: when the "More" link (data-infinite-more) comes into view,
// the next page is fetched and its cards appended; the link is replaced by the next one. Without
// JavaScript the link still works as plain paging.
(function () {
  "use strict";
  if (!("IntersectionObserver" in window) || !window.fetch || !window.DOMParser) return;
  var loading = false;

  function grid() { return document.querySelector(".product-grid"); }

  function watch(link) {
    var observer = new IntersectionObserver(function (entries) {
      if (!entries.some(function (e) { return e.isIntersecting; }) || loading) return;
      observer.disconnect();
      load(link);
    }, { rootMargin: "600px 0px" });
    observer.observe(link);
  }

  function load(link) {
    loading = true;
    link.textContent = "Loading…";
    fetch(link.href, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.text();
      })
      .then(function (html) {
        var next = new DOMParser().parseFromString(html, "text/html");
        var target = grid();
        var cards = next.querySelectorAll(".product-grid > li");
        cards.forEach(function (card) { target.appendChild(document.importNode(card, true)); });
        var nextLink = next.querySelector("[data-infinite-more]");
        if (nextLink) {
          link.href = nextLink.getAttribute("href");
          link.textContent = "More";
          loading = false;
          watch(link);
        } else {
          link.parentNode.removeChild(link);
        }
      })
      .catch(function () {
        // Leave the link as a plain link: a tap loads the next page the old way.
        link.textContent = "More";
        loading = false;
      });
  }

  var link = document.querySelector("[data-infinite-more]");
  if (link && grid()) watch(link);
})();
