// STGY pages work without JavaScript; this file only adds conveniences: a Markdown
// preview (rendered and sanitised by the server, the same code as the post page),
// filling the sign-up form's language and time zone from the browser, and loading a
// post page's "Related posts" box after the page when it was not ready in time,
// filters that apply when chosen, character counters, the header's counts and "N new
// posts" kept current by light polling (/live), older posts loaded on scroll, and new
// replies and messages shown on an open post page or message thread (/live/replies,
// /live/messages).
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
  live();
  liveThread();
  infiniteTimeline();
  replayPoll();
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
          // The server's sanitised HTML (sns.reads.markdown.render_html), never the raw text.
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

// Light polling (every 30 s while the page is visible): the header's unread counts and,
// on the first page of a timeline, "N new posts" — a link that reloads the tab.
function live() {
  var timeline = document.querySelector("[data-live-url]:not(body)");
  var url = (timeline || document.body).getAttribute("data-live-url");
  if (!url) return;
  function setCount(link, n, testid) {
    if (!link) return;
    var badge = link.querySelector(".count");
    if (!n) { if (badge) badge.remove(); return; }
    if (!badge) {
      badge = document.createElement("span");
      badge.className = "count";
      badge.setAttribute("data-testid", testid);
      link.appendChild(document.createTextNode(" "));
      link.appendChild(badge);
    }
    badge.textContent = String(n);
  }
  // An admin's "Admin" link: its count, and the words a screen reader says after it. The
  // link keeps where it pointed when the page was drawn.
  function setOpenReports(link, n) {
    if (!link) return;
    setCount(link, n, "open-reports");
    var words = link.querySelector(".visually-hidden");
    if (!n) { if (words) words.remove(); return; }
    if (!words) {
      words = document.createElement("span");
      words.className = "visually-hidden";
      words.textContent = " open reports";
      link.appendChild(words);
    }
  }
  function poll() {
    if (document.hidden) return;
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (!data) return;
        setCount(document.querySelector(".nav-notifications"), data.unreadNotifications, "unread-count");
        setCount(document.querySelector(".nav-messages"), data.unreadMessages, "unread-messages");
        if ("openReports" in data) setOpenReports(document.querySelector(".nav-admin"), data.openReports);
        var banner = document.querySelector("[data-new-posts]");
        if (banner && data.newPosts) {
          banner.querySelector("a").textContent = (data.newPosts > 99 ? "99+" : data.newPosts) +
            (data.newPosts === 1 ? " new post" : " new posts") + " — show";
          banner.hidden = false;
        }
      })
      .catch(function () {});
  }
  var seconds = parseFloat(document.body.getAttribute("data-live-seconds")) || 30;
  setInterval(poll, seconds * 1000);
  document.addEventListener("visibilitychange", poll);
}

// Older posts load as the reader reaches the end of a timeline; the pager's "Older" link
// stays the way without JavaScript (and is what is fetched).
function infiniteTimeline() {
  var timeline = document.querySelector("[data-infinite]");
  if (!timeline || !("IntersectionObserver" in window)) return;
  var loading = false;
  var observer = new IntersectionObserver(function (entries) {
    entries.forEach(function (entry) {
      if (!entry.isIntersecting || loading) return;
      var next = entry.target;
      loading = true;
      fetch(next.href, { credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) {
          if (!html) return;
          var doc = new DOMParser().parseFromString(html, "text/html");
          doc.querySelectorAll("[data-testid=timeline] > article.post").forEach(function (post) {
            timeline.appendChild(document.importNode(post, true));
          });
          var pager = document.querySelector("nav.pager");
          var fresh = doc.querySelector("nav.pager");
          observer.unobserve(next);
          if (pager && fresh) { pager.replaceWith(document.importNode(fresh, true)); watch(); }
          else if (pager) { pager.remove(); }
        })
        .finally(function () { loading = false; });
    });
  }, { rootMargin: "400px" });
  function watch() {
    var older = document.querySelector("nav.pager a[rel=next]");
    if (older) observer.observe(older);
  }
  watch();
}

// The run page while an admin's replay of a model call is pending: ask its trace
// (/agents/calls/<id>) every two seconds and reload the page once the answer is in.
function replayPoll() {
  var pending = document.querySelector("[data-replay-poll]");
  if (!pending) return;
  var url = pending.getAttribute("data-replay-poll");
  var tries = 0;
  function ask() {
    if (++tries > 150) return;  // five minutes; the page says how to look again
    fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (trace) {
        if (trace && trace.replay.status !== "pending") window.location.reload();
        else setTimeout(ask, 2000);
      })
      .catch(function () { setTimeout(ask, 2000); });
  }
  setTimeout(ask, 2000);
}

// A post page's replies or a message thread, redrawn when something newer came: a
// cheap check (one cache read on the server) every few seconds while the page is new
// or just changed, rarely after; when it says so, the page is fetched again and the
// watched part replaced. The live region says how many new items appeared. What the
// person is typing lives outside the watched part and is never touched.
function liveThread() {
  var box = document.querySelector("[data-live-thread]");
  if (!box) return;
  var note = document.querySelector("[data-live-note]");
  var url = box.getAttribute("data-live-thread");
  var after = box.getAttribute("data-live-after");
  var seconds = (box.getAttribute("data-live-seconds") || "4 20").split(" ").map(parseFloat);
  var changedAt = Date.now();
  var selector = "article[data-post-id], article[data-testid=dm]";
  function ids(root) {
    var found = {};
    root.querySelectorAll(selector).forEach(function (item) { found[item.id] = true; });
    return found;
  }
  function redraw() {
    return fetch(location.pathname + location.search, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) return;
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.querySelector("[data-live-thread]");
        if (!fresh) return;
        var before = ids(box);
        box.innerHTML = fresh.innerHTML;
        var count = document.querySelector("[data-live-count]");
        var freshCount = doc.querySelector("[data-live-count]");
        if (count && freshCount) count.textContent = freshCount.textContent;
        var added = Object.keys(ids(box)).filter(function (id) { return !before[id]; }).length;
        if (note && added) {
          note.textContent = added === 1 ? note.getAttribute("data-one") :
            added + " " + note.getAttribute("data-many");
        }
      });
  }
  function check() {
    if (document.hidden) return schedule();
    fetch(url + "?after=" + encodeURIComponent(after), {
      credentials: "same-origin", headers: { Accept: "application/json" }
    })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (!data || !data.changed) return;
        after = data.newest;
        changedAt = Date.now();
        return redraw();
      })
      .catch(function () {})
      .then(schedule);
  }
  function schedule() {
    var fast = Date.now() - changedAt < 120000;
    setTimeout(check, (fast ? seconds[0] : seconds[1]) * 1000);
  }
  schedule();
}
