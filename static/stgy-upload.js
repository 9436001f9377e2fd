// Image and track uploads (docs/media.md §3, §6, §9): the original's presigned flow from
// the browser. Ask /api/media/<me>/.../presigned, POST the bytes straight to the store
// (the site's own signed endpoint or S3/MinIO) with progress, then /finalize. The
// compose box gets "![name](/images/<key>)" or, for a track, "@[name](/tracks/<preview
// key>)" at the cursor; the settings page's avatar form reloads. A GPX file becomes
// gzip-compressed TrackJSON (.trjgz) here first, as the original's browser does. A track
// still being parsed when finalize answers (202 "processing") is asked after until it is
// done or refused (GET .../tracks/finalize?key=).
"use strict";

(function () {
  function postJson(url, body) {
    return fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        if (!response.ok) throw new Error(data.error || ("error " + response.status));
        return data;
      });
    });
  }

  var POLL_MS = 1000, POLL_TRIES = 90;

  function getJson(url) {
    return fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        return response.json().catch(function () { return {}; }).then(function (data) {
          if (!response.ok) throw new Error(data.error || ("error " + response.status));
          return data;
        });
      });
  }

  // A finalize's answer, once the server has finished with the file.
  function finished(base, key, answer, tries) {
    if (!answer || answer.status !== "processing") return Promise.resolve(answer);
    if (tries >= POLL_TRIES) return Promise.reject(new Error("still processing; see your tracks later"));
    return new Promise(function (resolve) { setTimeout(resolve, POLL_MS); }).then(function () {
      return getJson(base + "/finalize?key=" + encodeURIComponent(key));
    }).then(function (next) { return finished(base, key, next, tries + 1); });
  }

  function sendToStore(presigned, file, onProgress) {
    return new Promise(function (resolve, reject) {
      var form = new FormData();
      Object.keys(presigned.fields).forEach(function (name) { form.append(name, presigned.fields[name]); });
      form.append("file", file, file.name);
      var xhr = new XMLHttpRequest();
      xhr.open("POST", presigned.url);
      xhr.withCredentials = false;  // the signature is the credential, never our cookie
      xhr.upload.onprogress = function (event) {
        if (event.lengthComputable) onProgress(Math.round(event.loaded * 100 / event.total));
      };
      xhr.onload = function () {
        if (xhr.status >= 200 && xhr.status < 300) return resolve();
        var message = "upload failed: " + xhr.status;
        try { message = JSON.parse(xhr.responseText).error || message; } catch (e) { /* S3 answers XML */ }
        reject(new Error(message));
      };
      xhr.onerror = function () { reject(new Error("upload failed")); };
      xhr.send(form);
    });
  }

  function uploadOne(base, file, zone) {
    var progress = zone.querySelector("[data-upload-progress]");
    var status = zone.querySelector("[data-upload-status]");
    progress.hidden = false;
    progress.value = 0;
    status.textContent = "Uploading " + file.name + "…";
    return postJson(base + "/presigned", { filename: file.name, sizeBytes: file.size })
      .then(function (presigned) {
        return sendToStore(presigned, file, function (pct) { progress.value = pct; })
          .then(function () { return postJson(base + "/finalize", { key: presigned.objectKey }); })
          .then(function (answer) { return finished(base, presigned.objectKey, answer, 0); });
      })
      .then(function (meta) {
        progress.value = 100;
        status.textContent = "Uploaded " + file.name;
        return meta;
      }, function (error) {
        status.textContent = file.name + ": " + error.message;
        throw error;
      })
      .finally(function () { progress.hidden = true; });
  }

  function insertAtCursor(textarea, text) {
    var start = textarea.selectionStart || 0, end = textarea.selectionEnd || 0;
    var before = textarea.value.slice(0, start), after = textarea.value.slice(end);
    var lead = before && !before.endsWith("\n") ? "\n" : "";
    textarea.value = before + lead + text + "\n" + after;
    textarea.selectionStart = textarea.selectionEnd = (before + lead + text + "\n").length;
    textarea.dispatchEvent(new Event("input", { bubbles: true }));
  }

  var TRACK_FILE = /\.(fit|trjgz|gpx)$/i;

  // GPX → TrackJSON: every track segment with two or more points becomes a LineString,
  // with its times and altitudes where the file has them.
  function gpxToTrackFile(file) {
    return file.text().then(function (text) {
      var doc = new DOMParser().parseFromString(text, "application/xml");
      if (doc.getElementsByTagName("parsererror").length) throw new Error("invalid GPX file");
      var features = [];
      Array.prototype.forEach.call(doc.getElementsByTagName("trkseg"), function (segment) {
        var coords = [], times = [], altitudes = [];
        Array.prototype.forEach.call(segment.getElementsByTagName("trkpt"), function (point) {
          var lat = parseFloat(point.getAttribute("lat")), lon = parseFloat(point.getAttribute("lon"));
          if (!isFinite(lat) || !isFinite(lon)) return;
          var ele = point.getElementsByTagName("ele")[0], time = point.getElementsByTagName("time")[0];
          coords.push([lon, lat]);
          altitudes.push(ele ? parseFloat(ele.textContent) : null);
          times.push(time ? Math.round(Date.parse(time.textContent) / 1000) : null);
        });
        if (coords.length < 2) return;
        var series = {};
        if (times.every(isFinite)) series.times = times;
        if (altitudes.every(isFinite)) series.altitudes = altitudes;
        features.push({ type: "Feature", geometry: { type: "LineString", coordinates: coords },
                        properties: { coordinateProperties: series } });
      });
      if (!features.length) throw new Error("no track in the GPX file");
      var json = JSON.stringify({ type: "FeatureCollection", features: features });
      var gzipped = new Blob([json]).stream().pipeThrough(new CompressionStream("gzip"));
      return new Response(gzipped).blob().then(function (blob) {
        return new File([blob], file.name.replace(/\.gpx$/i, ".trjgz"), { type: "application/gzip" });
      });
    });
  }

  function altFrom(name) {
    return name.replace(/\.[^.]+$/, "").replace(/[\[\]\\]/g, " ").trim();
  }

  function uploadTrack(file, zone) {
    var ready = /\.gpx$/i.test(file.name) ? gpxToTrackFile(file) : Promise.resolve(file);
    return ready.then(function (upload) {
      return uploadOne(zone.dataset.uploadBase, upload, zone);
    }, function (error) {
      zone.querySelector("[data-upload-status]").textContent = file.name + ": " + error.message;
      throw error;
    }).then(function (done) {
      return "@[" + altFrom(file.name) + "](/tracks/" + done.master.previewKey + ")";
    });
  }

  function wire(zone) {
    var base = zone.dataset.uploadBase;
    var tracks = zone.hasAttribute("data-upload-tracks");
    var textarea = zone.dataset.uploadTarget ? document.querySelector(zone.dataset.uploadTarget) : null;
    var run = function (files) {
      var chain = Promise.resolve();
      Array.prototype.forEach.call(files, function (file) {
        // Files dropped on the text area reach the image zone and the track zone: each
        // takes its own kind.
        if (tracks !== TRACK_FILE.test(file.name)) return;
        chain = chain.then(function () {
          if (tracks) {
            return uploadTrack(file, zone).then(function (line) { if (textarea) insertAtCursor(textarea, line); });
          }
          return uploadOne(base, file, zone).then(function (meta) {
            if (textarea) {
              insertAtCursor(textarea, "![" + altFrom(file.name) + "](/images/" + meta.key + ")");
            } else if (zone.hasAttribute("data-upload-reload")) {
              window.location.reload();
            }
          });
        }).catch(function () { /* shown in the status line */ });
      });
    };
    zone.hidden = false;
    var input = zone.querySelector("[data-upload-input]");
    input.addEventListener("change", function () { run(input.files); input.value = ""; });
    var targets = textarea ? [zone, textarea] : [zone];
    targets.forEach(function (target) {
      target.addEventListener("dragover", function (event) {
        if (!event.dataTransfer || Array.prototype.indexOf.call(event.dataTransfer.types, "Files") < 0) return;
        event.preventDefault();
        zone.classList.add("dragging");
      });
      target.addEventListener("dragleave", function () { zone.classList.remove("dragging"); });
      target.addEventListener("drop", function (event) {
        if (!event.dataTransfer || !event.dataTransfer.files.length) return;
        event.preventDefault();
        zone.classList.remove("dragging");
        run(event.dataTransfer.files);
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-upload-base]").forEach(wire);
    document.querySelectorAll("[data-avatar-remove]").forEach(function (button) {
      button.addEventListener("click", function () {
        fetch(button.dataset.avatarRemove, {
          method: "DELETE", credentials: "same-origin", headers: { "Content-Type": "application/json" },
        })
          .then(function () { window.location.reload(); });
      });
    });
  });
})();
