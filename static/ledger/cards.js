// The card picker (templates/ledger/_cards_picker.html): tap cards into the two text fields
// of a table. The preview under them (melds, counts, lay-offs, who wins) is fetched by htmx
// (hx-get on .cards-preview, debounced) and worked out by the server from the game's rules;
// this script works out no rule. It only fills the text fields, marks the cards taken, tells
// htmx a field changed, and shows each player's count from the preview on his tab.
// Without this script the text fields alone work: the server reads them when the hand is
// saved, and draws the preview under a refused form.
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

  function tokens(text) {
    return (text || "").trim().split(/[\s,]+/).filter(Boolean).map(function (token) {
      var t = token.toUpperCase();
      return /^T[SHDC]$/.test(t) ? "10" + t[1] : t;
    });
  }

  function setup(box) {
    if (box.dataset.ready) return;
    if (!box.open) {
      // set up when first opened: a closed picker shows nothing, and the next hand's form
      // comes with every Save (its deck of 52 buttons copied, and painted, for nothing)
      if (!box.dataset.waiting) {
        box.dataset.waiting = "1";
        box.addEventListener("toggle", function () { if (box.open) setup(box); });
      }
      return;
    }
    box.dataset.ready = "1";
    var table = box.dataset.cards;
    var inputs = [0, 1].map(function (pos) {
      return box.querySelector("[name=t" + table + "_cards" + pos + "]");
    });
    var names = [box.dataset.a, box.dataset.b];
    var tabs = box.querySelectorAll(".picker-tab");
    // the page's one deck (ledger/_card_deck.html), copied into this picker
    var deck = box.querySelector(".deck");
    var grid = document.getElementById("card-deck");
    if (deck && grid && !deck.querySelector(".deck-card")) {
      deck.appendChild(grid.content.cloneNode(true));
    }
    var buttons = box.querySelectorAll(".deck-card");
    var preview = box.querySelector(".cards-preview");
    var clearName = box.querySelector(".picker-clear-name");
    var active = 0;

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
      if (!preview) return; // a table's report phone has no preview (the core checks the report)
      var counts = {};
      preview.querySelectorAll(".cp-count").forEach(function (el) {
        counts[el.dataset.name] = el.textContent;
      });
      tabs.forEach(function (tab) {
        var name = names[Number(tab.dataset.pos)];
        tab.querySelector(".picker-dw").textContent = name in counts ?
          said(words("cards").count || " · count %(count)s", { count: counts[name] }) : "";
      });
    }

    function changed(input) {
      // a tapped card changes the field's value without an input event: send one, for htmx
      input.dispatchEvent(new Event("input", {bubbles: true}));
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
        changed(input);
      });
    });
    inputs.forEach(function (input, pos) {
      input.addEventListener("focus", function () { if (active !== pos) choose(pos); });
      input.addEventListener("input", paint);
    });
    box.querySelector(".picker-clear").addEventListener("click", function () {
      inputs[active].value = "";
      paint();
      changed(inputs[active]);
    });
    if (preview) {
      preview.addEventListener("htmx:afterSwap", showCounts);
      ["htmx:responseError", "htmx:sendError"].forEach(function (name) {
        preview.addEventListener(name, function () {
          var p = document.createElement("p");
          p.className = "help";
          p.textContent = words("cards").no_preview ||
            "No preview just now; the counts are worked out when the hand is saved.";
          preview.replaceChildren(p);
        });
      });
    }
    choose(0);
    showCounts();
    if (preview && (inputs[0].value || inputs[1].value) && !preview.querySelector(".cp") &&
        window.htmx) {
      window.htmx.trigger(inputs[0], "input");
    }
  }

  function init() {
    document.querySelectorAll("details.cards[data-cards]").forEach(setup);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
  // a hand form drawn again by htmx (saved or refused in place) gets its pickers too
  document.addEventListener("htmx:load", function (event) {
    var root = event.detail && event.detail.elt;
    if (root && root.querySelectorAll) root.querySelectorAll("details.cards[data-cards]").forEach(setup);
  });
})();
