// Every page: the installable app's service worker, what needs the connection while there
// is none, and the copy buttons of share links. Every screen works without this file.
(function () {
  "use strict";

  // The page's words for this script (#script-words, ledger/presentation/script_words.py),
  // in the page's language; the English here only where a page has none.
  function words(group) {
    try {
      var el = document.getElementById("script-words");
      return (el && JSON.parse(el.textContent)[group]) || {};
    } catch (e) { return {}; }
  }
  function said(text, values) {
    return String(text).replace(/%\((\w+)\)s/g, function (whole, name) {
      return name in values ? String(values[name]) : whole;
    });
  }
  // a sentence of a count in the language's plural form (by CLDR category)
  function counted(forms, count, fallback) {
    var lang = document.documentElement.lang || "en";
    try {
      var text = forms && (forms[new Intl.PluralRules(lang).select(count)] || forms.other);
      if (text) return said(text, { count: count });
    } catch (e) { /* no Intl: the English */ }
    return said(fallback, { count: count });
  }

  // -- the service worker (static/ledger/sw.js, served at /sw.js) ---------------------------
  if ("serviceWorker" in navigator && window.isSecureContext) {
    window.addEventListener("load", function () {
      // a worker that does not install means no app on the home screen and no page after a
      // reload without the connection: say so in the console, where an operator looks
      navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function (error) {
        console.error("Tablestakes: the service worker /sw.js did not install, so pages " +
          "will not open without a connection:", error);
      });
    });
  }

  function forgetKeptPages() {
    // logging out: the pages kept for offline use are this account's, not the next one's
    if (!window.caches) return;
    caches.keys().then(function (keys) {
      keys.forEach(function (key) { if (key.indexOf("ts-pages-") === 0) caches.delete(key); });
    });
  }
  function unsentHands() {
    var count = 0;
    try {
      for (var i = 0; i < localStorage.length; i++) {
        var key = localStorage.key(i);
        if (key.indexOf("tablestakes.queue.v1.") === 0) {
          count += (JSON.parse(localStorage.getItem(key)) || []).length;
        }
      }
    } catch (e) { /* no storage: nothing kept */ }
    return count;
  }
  document.addEventListener("submit", function (event) {
    var action = event.target.getAttribute("action") || "";
    if (!/\/accounts\/logout\/$/.test(action)) return;
    var unsent = unsentHands();
    if (unsent && !window.confirm(counted(words("shell").logout, unsent,
        "%(count)s" + (unsent === 1 ? " hand is" : " hands are") +
        " not sent yet. They stay on this phone and are sent when you log in again and " +
        "open the game. Log out anyway?"))) {
      event.preventDefault();
      return;
    }
    forgetKeptPages();
  });

  // -- no connection: say so; what needs it is switched off until it returns ---------------
  var banner = null;
  function offlineText() {
    var w = words("shell");
    if (document.getElementById("offline-queue")) {
      return w.offline_game || "No connection. Hands you save are kept on this phone and " +
        "sent, in order, when it returns. Corrections, undo, settings and settling up need " +
        "the connection.";
    }
    var settling = document.querySelector("form[action*='/settle/']") ?
      " " + (w.offline_settling || "Settling up needs it too.") : "";
    return (w.offline_page || "No connection. What you see is as this phone last loaded " +
      "it; changes need the connection.") + settling;
  }
  function needsNetwork() {
    // every form that writes, except the hand form (it queues), and the links to the
    // screens that correct or change a game
    var forms = Array.prototype.filter.call(document.querySelectorAll("form"), function (f) {
      return (f.method || "").toLowerCase() === "post" && !f.hasAttribute("data-offline-queue");
    });
    var links = Array.prototype.slice.call(document.querySelectorAll(
      "a[href*='/fix/'], a[href$='/settings/'], a[href*='/games/new/'], a[href^='/sheets/'], " +
      "a[data-dialog]"));  // undo, settle, revoke: a question, then a form that writes
    return { forms: forms, links: links };
  }
  function setOffline(offline) {
    // back online on a page that was never switched off (offline.js says so after every
    // hand sent): nothing to switch on again, and no need to go through the sheet's links
    if (!offline && !document.documentElement.classList.contains("is-offline")) return;
    var main = document.querySelector("main.page") || document.body;
    if (offline && !banner) {
      banner = document.createElement("p");
      banner.className = "offline-banner";
      banner.setAttribute("role", "status");
      banner.id = "offline-banner";
      main.insertBefore(banner, main.firstChild);
    }
    if (banner) {
      banner.textContent = offlineText();
      banner.hidden = !offline;
    }
    var parts = needsNetwork();
    parts.forms.forEach(function (form) {
      form.querySelectorAll("button, input[type=submit]").forEach(function (button) {
        if (offline && !button.disabled) {
          button.disabled = true;
          button.dataset.offlineDisabled = "1";
          button.title = words("shell").needs_network || "Needs the connection";
        } else if (!offline && button.dataset.offlineDisabled) {
          button.disabled = false;
          delete button.dataset.offlineDisabled;
          button.removeAttribute("title");
        }
      });
      form.classList.toggle("needs-network", offline);
    });
    parts.links.forEach(function (link) {
      link.classList.toggle("needs-network", offline);
      if (offline) link.setAttribute("aria-disabled", "true");
      else link.removeAttribute("aria-disabled");
    });
    document.documentElement.classList.toggle("is-offline", offline);
  }
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a.needs-network");
    if (!link) return;
    event.preventDefault();
    event.stopPropagation();  // before any other script opens its question
    if (banner) { banner.hidden = false; banner.scrollIntoView({ block: "nearest" }); }
  }, true);
  window.addEventListener("offline", function () { setOffline(true); });
  window.addEventListener("online", function () { setOffline(false); });
  document.addEventListener("DOMContentLoaded", function () {
    if (navigator.onLine) return;
    setOffline(true);
    // a page shown from the phone's cache: its messages were news when it was loaded
    document.querySelectorAll(".flash").forEach(function (el) { el.hidden = true; });
  });
  // offline.js reports a send that failed although the browser thinks it is online
  document.addEventListener("tablestakes:connection", function (event) {
    setOffline(!event.detail.online);
  });

  // -- share links: copy ---------------------------------------------------------------------
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-copy]");
    if (button) {
      var input = document.getElementById(button.getAttribute("data-copy"));
      if (!input) return;
      var w = words("shell");
      var label = button.textContent;
      var done = function () {
        button.textContent = w.copied || "Copied";
        setTimeout(function () { button.textContent = label || w.copy || "Copy"; }, 2000);
      };
      input.select();
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(input.value).then(done, function () {
          if (document.execCommand("copy")) done();
        });
      } else if (document.execCommand("copy")) {
        done();
      }
      return;
    }
    // one tap on the link's box selects all of it
    if (event.target.matches && event.target.matches("input.copy")) event.target.select();
  });
})();
