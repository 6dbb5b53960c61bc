// Small progressive enhancements; every screen works without them.
document.addEventListener("submit", function (event) {
  // A second tap while the page is loading must not send the hand twice (the server also
  // ignores a repeat of the same idempotency key).
  var button = event.submitter;
  if (!button || button.name === "cut") return;
  if (button.formMethod === "dialog") return;  // "Keep" in a confirmation only closes it
  if (event.target.dataset.sent) { event.preventDefault(); return; }
  event.target.dataset.sent = "1";
  setTimeout(function () { delete event.target.dataset.sent; }, 4000);
});
document.addEventListener("change", function (event) {
  // Tapping Gin means the knocker has nothing left: clear his count so it is not sent.
  var el = event.target;
  var m = el.name && el.name.match(/^(t\d+)_kind$/);
  if (!m || el.value === el.dataset.plain) return;  // (data-plain: the plain knock's kind)
  var form = el.form;
  var knocker = form.querySelector("input[name=" + m[1] + "_knocker]:checked");
  if (!knocker) return;
  // the count fields' labels as the form says them, with a place for the name (#hand-form-
  // fields: "{name}'s count", "Punkte von {name}"), in the page's language
  var templates = {};
  try {
    var schema = JSON.parse(form.querySelector("#hand-form-fields").textContent);
    (schema.tables || []).forEach(function (t) { Object.assign(templates, t.labels || {}); });
  } catch (e) { /* no schema: the English label */ }
  var labels = form.querySelectorAll("input[name^=" + m[1] + "_c]");
  labels.forEach(function (input) {
    if (!/_c\d+$/.test(input.name)) return;  // counts only, not the cards (t1_cards0)
    var label = form.querySelector("label[for=" + input.id + "]");
    var mine = (templates[input.name] || "{name}'s count").replace("{name}", knocker.value);
    if (label && label.textContent.trim().indexOf(mine.trim()) === 0) { input.value = ""; }
  });
});
// A refused hand: its reasons are next to Save (#save-error); bring the first marked field
// into view and give it the focus, after an htmx answer and after a whole page alike.
function showRefusal() {
  var reason = document.getElementById("save-error");
  if (!reason) return;
  var form = reason.closest("form");
  var field = form && form.querySelector(".field.has-error");
  if (!field) return;
  field.scrollIntoView({block: "center"});
  var input = field.querySelector("input:not([type=hidden]):not([type=radio]), select, textarea") ||
              field.querySelector("input[type=radio]");
  if (input) input.focus({preventScroll: true});
}
document.addEventListener("DOMContentLoaded", showRefusal);
document.addEventListener("htmx:afterSettle", function (event) {
  var detail = event.detail || {};
  var elt = (detail.requestConfig && detail.requestConfig.elt) || detail.elt;
  if (!elt || !elt.hasAttribute || !elt.hasAttribute("data-hand-form")) return;
  if (document.getElementById("save-error")) { showRefusal(); return; }
  nextHand();
});
// A hand saved in place (htmx here, or the phone's queue: static/ledger/queue/page.js sends
// "tablestakes:next-hand"): the new score in view, whole and just under the top bar, with
// the next hand's card under it; the focus on the next hand's first choice (a radio: no
// keypad comes up), so the keyboard goes on from there. The live region (#announce) has
// already been given the hand's words by the answer.
function nextHand() {
  var form = document.querySelector("form[data-hand-form]");
  var score = document.querySelector("#score .scoreboard") || document.getElementById("score");
  var bar = document.querySelector(".topbar");
  var top = bar ? bar.getBoundingClientRect().bottom : 0;
  if (score) {
    var r = score.getBoundingClientRect();
    if (r.top < top || r.bottom > window.innerHeight) {
      window.scrollBy(0, r.top - top - 4);  // just clear of the bar (the title above goes)
    }
  }
  if (!form) return;
  fitRows();
  var first = form.querySelector(".field input[type=radio]");
  if (first) {
    var group = form.querySelectorAll("input[type=radio][name='" + first.name + "']");
    var chosen = Array.prototype.filter.call(group, function (el) { return el.checked; })[0];
    (chosen || first).focus({preventScroll: true});
  }
}
document.addEventListener("tablestakes:next-hand", nextHand);
// Several tables (issue 37): the hand whole on the screen, down to its last table's row
// above the Save bar. As far as needed and no further than the hand's card under the score
// strip (the score stays in view there when its tiles go under the top bar): a captain-7
// hand's third row was under the Save bar after each Save. Also when the tables' reports
// add their lines to the rows (static/ledger/report_keeper.js), unless a field is in use.
function fitRows() {
  var form = document.querySelector("form[data-hand-form]");
  var card = document.getElementById("entry");
  if (!form || !card) return;
  var rows = form.querySelectorAll(".table-row");
  var savebar = form.querySelector(".savebar");
  if (!rows.length || !savebar) return;
  var over = rows[rows.length - 1].getBoundingClientRect().bottom + 4 -
             savebar.getBoundingClientRect().top;
  var strip = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 96;
  var room = card.getBoundingClientRect().top - strip;
  if (over > 0 && room > 0) window.scrollBy(0, Math.min(over, room));
}
document.addEventListener("tablestakes:rows-grew", function () {
  var active = document.activeElement;
  if (active && active.form && active.form.hasAttribute("data-hand-form") &&
      active.type !== "radio") return;  // typing: the page does not move under the keys
  fitRows();
});
document.addEventListener("click", function (event) {
  // A share link's box: one tap selects the whole link, ready to copy.
  var el = event.target;
  if (el.matches && el.matches("input.copy")) { el.select(); }
});
// The score once on the first screen: the tiles at the top (#score); the compact strip
// under the top bar (.score-strip) only once they have scrolled away (.score-away).
// The Save bar's height (--savebar-h) keeps a focused field above it (scroll-padding;
// the hand form's bar, or the bar of the form being typed in: correction, settings, start);
// when the bar grows (the preview, a reason) or the keypad comes up, the field being
// typed in is brought back into view.
(function () {
  var root = document.documentElement;
  var topbar = document.querySelector(".topbar");
  // the sticky top bar's height (56 px and its border): measured at the first frame
  // (start), where the page is laid out anyway; read while the page loads, it would lay the
  // whole page out once more before it is shown
  var TOP = 56;
  var watched = null, bar = null, away = null;
  // the tiles (not the "game to 100" line under them): the strip shows as soon as any of
  // them goes under the top bar, so that a number is never hidden there
  var seen = function (entries) {
    entries.forEach(function (entry) {
      // the score swapped in place (htmx, the offline queue): watch the new one
      if (!entry.target.isConnected) { watched = null; watch(); return; }
      root.classList.toggle("score-away", entry.intersectionRatio < 0.99 &&
                            entry.boundingClientRect.top < TOP);
      reveal();
    });
  };
  function start() {
    TOP = topbar ? Math.round(topbar.getBoundingClientRect().height) : 56;
    root.style.setProperty("--topbar-h", TOP + "px");  // the strip sits right under it
    away = window.IntersectionObserver ? new IntersectionObserver(seen, {
      rootMargin: "-" + TOP + "px 0px 0px 0px", threshold: [0, 0.99, 1]}) : null;
    watch();
  }
  // the bar's height as the observer gives it (after the frame's layout, none forced); set
  // only when it changed: a new value restyles the whole page
  var sized = window.ResizeObserver ? new ResizeObserver(function (entries) {
    if (bar && !bar.isConnected) { sized.unobserve(bar); bar = null; watch(); }  // swapped
    var mine = entries.filter(function (entry) { return entry.target === bar; }).pop();
    measure(mine);
    // a bar just drawn (a new form) reports its height once: nothing grew under the
    // field being typed in (nextHand and focusin place the page), and reading where the
    // field is would lay the page out again
    if (fresh === bar) { fresh = null; return; }
    reveal();
  }) : null;
  var fresh = null;  // the bar observed last, before its first report

  function measure(entry) {
    if (!bar || !bar.isConnected) return;
    var box = entry && entry.borderBoxSize && entry.borderBoxSize[0];
    var height = box ? box.blockSize : bar.getBoundingClientRect().height;
    var value = Math.ceil(height) + "px";
    if (root.style.getPropertyValue("--savebar-h") !== value) {
      root.style.setProperty("--savebar-h", value);
    }
  }
  function ceiling() {
    var strip = root.classList.contains("score-away") && document.querySelector(".score-strip");
    return strip ? strip.getBoundingClientRect().bottom : TOP;
  }
  function reveal() {
    var el = document.activeElement;
    if (!el || !el.form) return;
    var box = el.form.querySelector(".savebar");
    if (!box || box.contains(el)) return;
    var r = el.getBoundingClientRect(), b = box.getBoundingClientRect();
    if (r.bottom > b.top || r.top < ceiling()) el.scrollIntoView({block: "nearest"});
  }
  function watch() {
    var score = document.querySelector("#score .scoreboard") || document.getElementById("score");
    if (away && score !== watched) {
      away.disconnect();
      if (score) away.observe(score); else root.classList.remove("score-away");
      watched = score;
    }
    var active = document.activeElement;
    var next = (active && active.form && active.form.querySelector(".savebar")) ||
               document.querySelector("form[data-hand-form] .savebar");
    if (next !== bar) {
      if (sized && bar) sized.unobserve(bar);
      bar = next;
      if (sized && bar) { fresh = bar; sized.observe(bar); }  // it reports its height
      else measure();
    }
  }
  document.addEventListener("DOMContentLoaded", function () {
    watch();
    window.requestAnimationFrame(start);
  });
  document.addEventListener("htmx:afterSettle", watch);
  document.addEventListener("focusin", function () { watch(); setTimeout(reveal, 0); });
  window.addEventListener("resize", function () { measure(); setTimeout(reveal, 50); });
})();
