// Image uploads (docs/media.md §3, §6): the original's presigned flow from the browser.
// Ask /api/media/<me>/.../presigned, POST the bytes straight to the store (the site's own
// signed endpoint or S3/MinIO) with progress, then /finalize. The compose box gets
// "![name](/images/<key>)" at the cursor; the settings page's avatar form reloads.
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
          .then(function () { return postJson(base + "/finalize", { key: presigned.objectKey }); });
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

  function altFrom(name) {
    return name.replace(/\.[^.]+$/, "").replace(/[\[\]\\]/g, " ").trim();
  }

  function wire(zone) {
    var base = zone.dataset.uploadBase;
    var input = zone.querySelector("[data-upload-input]");
    var textarea = zone.dataset.uploadTarget ? document.querySelector(zone.dataset.uploadTarget) : null;
    var run = function (files) {
      var chain = Promise.resolve();
      Array.prototype.forEach.call(files, function (file) {
        chain = chain.then(function () {
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
        fetch(button.dataset.avatarRemove, { method: "DELETE", credentials: "same-origin" })
          .then(function () { window.location.reload(); });
      });
    });
  });
})();
