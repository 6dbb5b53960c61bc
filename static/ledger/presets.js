// The game setup form (templates/ledger/game_start.html): when another preset is tapped,
// each empty setting shows that preset's value (the server renders every preset's values
// in data-preset-values; without this script the page shows the preset it was drawn with).
// Its words are the page's (data-preset-words: the presets' names and "%(value)s (preset)"
// in the page's language).
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
  }
  function init() {
    document.querySelectorAll("form[data-presets]").forEach(follow);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
