// The share pages follow the table: htmx asks for the live part every 2 s
// (templates/ledger/_shared_*_live.html, ledger/views/live.py). Each poll says what this
// phone shows (If-None-Match: its ETag); while nothing changed the answer is an empty 304
// and nothing is swapped.
(function () {
  "use strict";
  // the page's words (#script-words, ledger/presentation/script_words.py)
  function words() {
    try {
      var el = document.getElementById("script-words");
      return (el && JSON.parse(el.textContent).live) || {};
    } catch (e) { return {}; }
  }
  function isLive(el) { return el && el.id === "live"; }
  document.addEventListener("htmx:configRequest", function (event) {
    var el = event.detail.elt;
    if (!isLive(el)) return;
    if (document.hidden) { event.preventDefault(); return; }  // a phone in a pocket asks nothing
    if (el.dataset.etag) event.detail.headers["If-None-Match"] = el.dataset.etag;
    // the server needs none of these; every poll is smaller without them
    ["HX-Current-URL", "HX-Target", "HX-Trigger", "HX-Trigger-Name"].forEach(function (name) {
      delete event.detail.headers[name];
    });
  });
  function lost(on) {
    var el = document.getElementById("live");
    if (el) el.classList.toggle("live-lost", on);
  }
  document.addEventListener("htmx:sendError", function () { lost(true); });
  document.addEventListener("htmx:responseError", function (event) {
    var el = event.detail.elt;
    if (isLive(el) && event.detail.xhr && event.detail.xhr.status === 404) {
      // the link was revoked (or the game is gone): say so and stop asking
      var note = document.createElement("p");
      note.className = "empty";
      note.setAttribute("role", "status");
      note.textContent = words().revoked ||
        "This link no longer works: the scorekeeper revoked it.";
      el.replaceWith(note);
      return;
    }
    lost(true);
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (isLive(event.detail.elt) && event.detail.successful) lost(false);
  });
})();
