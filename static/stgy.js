// STGY pages work without JavaScript; this file only adds two conveniences:
// a Markdown preview (rendered and sanitised by the server, the same code as the post
// page) and filling the sign-up form's language and time zone from the browser.
"use strict";

document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("form[data-preview-url]").forEach(function (form) {
    var button = form.querySelector("[data-preview-button]");
    var target = form.querySelector("[data-preview-target]");
    var source = form.querySelector("[data-preview-source]");
    if (!button || !target || !source) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      if (!target.hidden) {
        target.hidden = true;
        source.hidden = false;
        button.textContent = "Preview";
        source.focus();
        return;
      }
      var body = new FormData();
      body.append("content", source.value);
      body.append("csrfmiddlewaretoken", form.querySelector("[name=csrfmiddlewaretoken]").value);
      button.disabled = true;
      fetch(form.dataset.previewUrl, { method: "POST", body: body, credentials: "same-origin" })
        .then(function (response) {
          if (!response.ok) throw new Error("preview failed: " + response.status);
          return response.text();
        })
        .then(function (html) {
          // The server's sanitised HTML (sns.markdown.render_html), never the raw text.
          target.innerHTML = html || "<p class=\"muted\">Nothing to preview.</p>";
          target.hidden = false;
          source.hidden = true;
          button.textContent = "Edit";
        })
        .catch(function () {
          target.textContent = "The preview is not available right now.";
          target.hidden = false;
        })
        .finally(function () {
          button.disabled = false;
        });
    });
  });

  document.querySelectorAll("form[data-fill-locale]").forEach(function (form) {
    var locale = form.querySelector("[name=locale]");
    var zone = form.querySelector("[name=timezone]");
    if (locale && !locale.value && navigator.language) locale.value = navigator.language;
    try {
      var tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
      if (zone && !zone.value && tz) zone.value = tz;
    } catch (e) {
      /* keep the server's default */
    }
  });
});
