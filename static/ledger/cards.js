// The card picker (templates/ledger/_cards_picker.html): tap cards into the two text fields
// of a table and show the melds and counts worked out by the server (/cards/preview/).
// Without this script the text fields alone work: the server reads them when the hand is
// saved.
(function () {
  "use strict";
  var UP_VALUES = {A: 1, J: 10, Q: 10, K: 10};

  function tokens(text) {
    return (text || "").trim().split(/[\s,]+/).filter(Boolean).map(function (token) {
      var t = token.toUpperCase();
      return /^T[SHDC]$/.test(t) ? "10" + t[1] : t;
    });
  }

  function setup(box) {
    var form = box.closest("form");
    var table = box.dataset.cards;
    var inputs = [0, 1].map(function (pos) {
      return box.querySelector("[name=t" + table + "_cards" + pos + "]");
    });
    var names = [box.dataset.a, box.dataset.b];
    var tabs = box.querySelectorAll(".picker-tab");
    var buttons = box.querySelectorAll(".deck-card");
    var preview = box.querySelector(".cards-preview");
    var clearName = box.querySelector(".picker-clear-name");
    var active = 0;
    var timer = null;
    var pending = null;

    box.querySelector(".picker").hidden = false;

    function choose(pos) {
      active = pos;
      tabs.forEach(function (tab) {
        tab.setAttribute("aria-pressed", String(Number(tab.dataset.pos) === pos));
      });
      clearName.textContent = names[pos];
      paint();
    }

    function paint() {
      var held = inputs.map(function (input) { return tokens(input.value); });
      tabs.forEach(function (tab) {
        var pos = Number(tab.dataset.pos);
        tab.querySelector(".picker-n").textContent = held[pos].length;
      });
      buttons.forEach(function (button) {
        var card = button.dataset.card;
        var mine = held[active].indexOf(card) >= 0;
        var theirs = held[1 - active].indexOf(card) >= 0;
        button.setAttribute("aria-pressed", String(mine));
        button.classList.toggle("taken", theirs && !mine);
        button.disabled = theirs && !mine;
      });
    }

    function showCounts() {
      // Each tab shows its player's deadwood from the preview: visible while tapping.
      var counts = {};
      preview.querySelectorAll(".cp-count").forEach(function (el) {
        counts[el.dataset.name] = el.textContent;
      });
      tabs.forEach(function (tab) {
        var name = names[Number(tab.dataset.pos)];
        tab.querySelector(".picker-dw").textContent = name in counts ? " · count " + counts[name] : "";
      });
    }

    function knockLimit() {
      var limit = Number(box.dataset.limit || 10);
      if (!box.dataset.upcard) return {limit: limit, ace: false};
      var rank = form.querySelector("input[name=up_rank]:checked");
      if (!rank) return {limit: limit, ace: false};
      var value = UP_VALUES[rank.value] || Number(rank.value);
      if (value === 1 && box.dataset.oklahomaAce === "gin_only") return {limit: 0, ace: true};
      return {limit: value, ace: false};
    }

    function refresh() {
      clearTimeout(timer);
      timer = setTimeout(fetchPreview, 120);
    }

    function fetchPreview() {
      var knocker = form.querySelector("input[name=t" + table + "_knocker]:checked");
      var k = knocker && knocker.value === names[1] ? 1 : 0;
      var solo = !knocker || names.indexOf(knocker.value) < 0;
      var limit = knockLimit();
      var params = new URLSearchParams({
        knocker: inputs[k].value, opponent: inputs[1 - k].value,
        kname: names[k], oname: names[1 - k],
        limit: String(limit.limit), ace: limit.ace ? "1" : "0", solo: solo ? "1" : "0"
      });
      if (pending) pending.abort();
      pending = new AbortController();
      fetch(box.dataset.preview + "?" + params.toString(), {
        headers: {"X-Requested-With": "fetch"}, signal: pending.signal, credentials: "same-origin"
      }).then(function (response) {
        return response.ok ? response.text() : Promise.reject(response.status);
      }).then(function (html) {
        preview.innerHTML = html;
        showCounts();
      }).catch(function (error) {
        if (error && error.name === "AbortError") return;
        preview.innerHTML = '<p class="help">No preview just now; the counts are worked out ' +
          "when the hand is saved.</p>";
      });
    }

    tabs.forEach(function (tab) {
      tab.addEventListener("click", function () { choose(Number(tab.dataset.pos)); });
    });
    buttons.forEach(function (button) {
      button.addEventListener("click", function () {
        var input = inputs[active];
        var held = tokens(input.value);
        var at = held.indexOf(button.dataset.card);
        if (at >= 0) held.splice(at, 1); else held.push(button.dataset.card);
        input.value = held.join(" ");
        paint();
        refresh();
      });
    });
    inputs.forEach(function (input, pos) {
      input.addEventListener("focus", function () { if (active !== pos) choose(pos); });
      input.addEventListener("input", function () { paint(); refresh(); });
    });
    box.querySelector(".picker-clear").addEventListener("click", function () {
      inputs[active].value = "";
      paint();
      refresh();
    });
    form.addEventListener("change", function (event) {
      var name = event.target.name || "";
      if (name === "t" + table + "_knocker" || name === "up_rank") refresh();
    });
    choose(0);
    if (inputs[0].value || inputs[1].value) refresh();
  }

  function init() {
    document.querySelectorAll("details.cards[data-cards]").forEach(setup);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
