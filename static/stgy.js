// STGY pages work without JavaScript; this file only adds conveniences: a Markdown
// preview (rendered and sanitised by the server, the same code as the post page),
// filling the sign-up form's language and time zone from the browser, and loading a
// post page's "Related posts" box after the page when it was not ready in time, and
// filters that apply when chosen.
"use strict";

document.addEventListener("DOMContentLoaded", function () {
  // A live character count under every box with a limit (the browser's maxlength stops
  // typing at it; JavaScript strings count UTF-16 units, as the server does).
  document.querySelectorAll("textarea[data-limit]").forEach(function (box) {
    var limit = parseInt(box.getAttribute("data-limit"), 10);
    var counter = document.createElement("span");
    counter.className = "char-counter small";
    counter.id = (box.id || "box") + "-counter";
    counter.setAttribute("aria-live", "polite");
    box.insertAdjacentElement("afterend", counter);
    var described = box.getAttribute("aria-describedby");
    box.setAttribute("aria-describedby", (described ? described + " " : "") + counter.id);
    function update() {
      var left = limit - box.value.length;
      counter.textContent = box.value.length.toLocaleString() + " / " + limit.toLocaleString() + " characters";
      counter.classList.toggle("near", left < limit / 10);
    }
    box.addEventListener("input", update);
    update();
  });
  // A link to a reply folded deep in a thread opens the folds around it.
  var target = location.hash && document.getElementById(location.hash.slice(1));
  for (var node = target; node; node = node.parentElement) {
    if (node.tagName === "DETAILS") node.open = true;
  }
  // A filter that applies as soon as it is chosen (the form also has a button without JS).
  document.querySelectorAll("select[data-autosubmit]").forEach(function (select) {
    select.addEventListener("change", function () { select.form.submit(); });
  });
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

  document.querySelectorAll("[data-related-src]").forEach(function (slot) {
    fetch(slot.dataset.relatedSrc, { credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error("related posts: " + response.status);
        return response.text();
      })
      .then(function (html) {
        // A server-rendered template fragment (escaped by Django), not user input.
        slot.innerHTML = html;
      })
      .catch(function () {
        slot.remove();
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
