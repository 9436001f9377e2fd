// Maps in posts (docs/media.md §10). The server renders each map as a <figure
// class="stgy-track-map" data-map="{...}"> whose text already says where it is; this
// script, when such a figure is on the page (or arrives later: preview, older posts),
// loads Leaflet from our own static files and draws the place or track on it. Tiles
// come only from the configured STGY_MAP_TILE_URL; without one the map is drawn on a
// blank background and the page asks no other host.
"use strict";

(function () {
  var config = null;
  var loading = null;

  function readConfig() {
    if (config) return config;
    var node = document.getElementById("stgy-map-config");
    config = node ? JSON.parse(node.textContent) : {};
    return config;
  }

  function loadLeaflet() {
    if (window.L) return Promise.resolve(window.L);
    if (loading) return loading;
    var cfg = readConfig();
    loading = new Promise(function (resolve, reject) {
      var css = document.createElement("link");
      css.rel = "stylesheet";
      css.href = cfg.leafletCss;
      document.head.appendChild(css);
      var script = document.createElement("script");
      script.src = cfg.leafletJs;
      script.onload = function () { resolve(window.L); };
      script.onerror = reject;
      document.head.appendChild(script);
    });
    return loading;
  }

  function draw(L, figure) {
    var data;
    try {
      data = JSON.parse(figure.getAttribute("data-map"));
    } catch (e) {
      return;
    }
    var cfg = readConfig();
    var canvas = document.createElement("div");
    canvas.className = "stgy-map-canvas" + (cfg.tileUrl ? "" : " blank");
    canvas.setAttribute("role", "region");
    canvas.setAttribute("aria-label", "Map: " + figure.querySelector(".stgy-map-text").textContent);
    figure.insertBefore(canvas, figure.firstChild);
    var map = L.map(canvas, { scrollWheelZoom: false, attributionControl: !!cfg.tileUrl });
    if (cfg.tileUrl) {
      var layer = L.tileLayer(cfg.tileUrl, { maxZoom: 19 });
      if (cfg.attribution) layer.options.attribution = escapeText(cfg.attribution);
      layer.addTo(map);
    }
    var shown = [];
    (data.lines || []).forEach(function (line) {
      var latLngs = line.map(function (p) { return [p[1], p[0]]; });
      L.polyline(latLngs, { color: "#d33", weight: 4, opacity: 0.85 }).addTo(map);
      shown = shown.concat(latLngs);
      L.circleMarker(latLngs[0], { radius: 6, color: "#2a7", fillOpacity: 1 }).addTo(map).bindTooltip("start");
      L.circleMarker(latLngs[latLngs.length - 1], { radius: 6, color: "#27a", fillOpacity: 1 }).addTo(map).bindTooltip("end");
    });
    (data.pins || []).forEach(function (pin) {
      var marker = L.circleMarker([pin.lat, pin.lon], { radius: 7, color: "#a52", fillOpacity: 0.9 }).addTo(map);
      var label = [pin.title, pin.description].filter(Boolean).join(": ");
      if (label) marker.bindTooltip(escapeText(label));
      shown.push([pin.lat, pin.lon]);
    });
    if (data.kind === "place") {
      L.circleMarker([data.lat, data.lon], { radius: 5, color: "#333", fillOpacity: 1 }).addTo(map);
      map.setView([data.lat, data.lon], data.zoom);
    } else if (data.bbox) {
      map.fitBounds([[data.bbox[1], data.bbox[0]], [data.bbox[3], data.bbox[2]]], { padding: [12, 12] });
    }
    figure.classList.add("drawn");
  }

  function escapeText(text) {
    var span = document.createElement("span");
    span.textContent = text;
    return span.innerHTML;
  }

  function hydrate(root) {
    var figures = Array.prototype.filter.call(
      root.querySelectorAll("figure.stgy-track-map[data-map]"),
      function (f) { return !f.classList.contains("drawn") && !f.classList.contains("drawing"); });
    if (!figures.length) return;
    figures.forEach(function (f) { f.classList.add("drawing"); });
    loadLeaflet().then(function (L) {
      figures.forEach(function (f) {
        f.classList.remove("drawing");
        draw(L, f);
      });
    }, function () {
      figures.forEach(function (f) { f.classList.remove("drawing"); });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    hydrate(document);
    new MutationObserver(function () { hydrate(document); })
      .observe(document.body, { childList: true, subtree: true });
  });
})();
