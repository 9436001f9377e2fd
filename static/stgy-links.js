// Link cards (docs/api.md, "Link previews"): cards the server could not draw from its
// cache are asked of POST /api/link-snippets/resolve after the page has loaded, and on
// posts added later (older posts of an endless timeline). A card the server is still
// fetching ("pending") is asked again a few times, further apart each time. Every text
// is set as text.
"use strict";

(function () {
  var resolved = {};

  function resolve(url) {
    if (!resolved[url]) {
      resolved[url] = fetch("/api/link-snippets/resolve", {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ url: url }),
      }).then(function (response) {
        if (!response.ok) throw new Error("link snippet: " + response.status);
        return response.json();
      });
      // A card still being fetched elsewhere, or a failure, may be asked again later.
      resolved[url].then(function (card) {
        if (card.status === "pending" || card.status === "fetch_failed") delete resolved[url];
      }, function () { delete resolved[url]; });
    }
    return resolved[url];
  }

  function span(name, text) {
    var element = document.createElement("span");
    element.className = "stgy-link-snippet-" + name;
    element.textContent = text;
    return element;
  }

  function draw(box, card) {
    var link = box.querySelector("a.stgy-link-snippet-link");
    var caption = box.getAttribute("data-caption");
    link.replaceChildren();
    if (card.imageUrl) {
      var image = document.createElement("img");
      image.className = "stgy-link-snippet-image";
      image.alt = "";
      image.loading = "lazy";
      image.decoding = "async";
      image.referrerPolicy = "no-referrer";
      image.addEventListener("error", function () {
        image.remove();
        link.classList.remove("with-image");
      }, { once: true });
      image.src = card.imageUrl;
      link.appendChild(image);
      link.classList.add("with-image");
    }
    var body = document.createElement("span");
    body.className = "stgy-link-snippet-body";
    if (card.siteName) body.appendChild(span("site-name", card.siteName));
    body.appendChild(span("title", caption || card.title));
    if (card.description) body.appendChild(span("description", card.description));
    link.appendChild(body);
    box.hidden = false;
  }

  function drop(box) {
    var cards = box.parentNode;
    box.remove();
    if (cards && cards.classList.contains("link-cards") && !cards.children.length) cards.remove();
  }

  var RETRY_DELAYS_MS = [1500, 3000, 6000];

  function fill(box, url, attempt) {
    resolve(url).then(function (card) {
      if (card.status === "pending" && attempt < RETRY_DELAYS_MS.length) {
        setTimeout(function () { fill(box, url, attempt + 1); }, RETRY_DELAYS_MS[attempt]);
        return;
      }
      box.setAttribute("data-link-snippet", card.status);
      if (card.status === "ready" && card.title) draw(box, card);
      else if (box.hidden) drop(box);  // a plain link without a card: the text has it
    }).catch(function () {
      box.setAttribute("data-link-snippet", "fetch_failed");
      if (box.hidden) drop(box);
    });
  }

  function hydrate(root) {
    root.querySelectorAll("[data-link-snippet=pending]").forEach(function (box) {
      var link = box.querySelector("a.stgy-link-snippet-link");
      if (!link) return;
      box.setAttribute("data-link-snippet", "resolving");
      fill(box, link.getAttribute("href"), 0);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    hydrate(document);
    var timeline = document.querySelector("[data-infinite]");
    if (timeline && "MutationObserver" in window) {
      new MutationObserver(function () { hydrate(timeline); })
        .observe(timeline, { childList: true });
    }
  });
})();
