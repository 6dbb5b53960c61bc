// The game setup form (templates/ledger/game_start.html): when another preset is tapped,
// each empty setting shows that preset's value (the server renders every preset's values
// in data-preset-values; without this script the page shows the preset it was drawn with).
// Its words are the page's (data-preset-words: the presets' names and "%(value)s (preset)"
// in the page's language). The seats of two named sides follow the sides' names as typed.
(function () {
  "use strict";
  function follow(form) {
    var fields = form.querySelectorAll("[data-preset-values]");
    var words = {};
    try { words = JSON.parse(form.dataset.presetWords || "{}"); } catch (e) { words = {}; }
    var labels = words.labels || {};
    var choice = words.choice || "%(value)s (preset)";
    function show(preset) {
      form.querySelectorAll("[data-preset-shown]").forEach(function (el) {
        el.textContent = labels[preset] || preset;
      });
      fields.forEach(function (field) {
        var values = JSON.parse(field.dataset.presetValues);
        if (!(preset in values)) return;
        if (field.tagName === "SELECT") {
          var blank = field.querySelector("option[value='']");
          if (blank) blank.textContent = choice.replace("%(value)s", values[preset]);
        } else {
          field.placeholder = values[preset];
        }
      });
    }
    form.addEventListener("change", function (event) {
      if (event.target.name === "preset") show(event.target.value);
    });
    // a preset tapped before this script ran (a slow phone) or kept by the browser on
    // going back: the empty settings show the preset that is picked, not the one drawn
    var picked = form.querySelector("input[name=preset]:checked, select[name=preset]");
    if (picked && picked.value) show(picked.value);
  }
  // Two named sides (partnership, streets): each card table's seats are labelled with their
  // side's name (the server labels them with the names it was given); as a name is typed,
  // its seats follow it, back to the label they had when the field is emptied.
  function sides(form) {
    function name(field) {
      var typed = field.value.trim().replace(/\s+/g, " ").slice(0, 30);
      form.querySelectorAll(".side-table select[name^='" + field.name.slice(-1) + "']")
        .forEach(function (seat) {
          var label = form.querySelector("label[for='" + seat.id + "']");
          if (!label) return;
          if (label.dataset.sideWas === undefined) label.dataset.sideWas = label.textContent;
          label.textContent = typed || label.dataset.sideWas;
        });
    }
    form.addEventListener("input", function (event) {
      if (event.target.name === "side_a" || event.target.name === "side_b") name(event.target);
    });
    // a name typed before this script ran (a slow phone) or kept by the browser on reload
    form.querySelectorAll("input[name=side_a], input[name=side_b]").forEach(function (field) {
      if (field.value.trim()) name(field);
    });
  }
  function init() {
    document.querySelectorAll("form[data-presets]").forEach(follow);
    document.querySelectorAll("form[data-presets]").forEach(sides);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
