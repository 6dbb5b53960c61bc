// The game setup form (templates/ledger/game_start.html): when another preset is tapped,
// each empty setting shows that preset's value (the server renders every preset's values
// in data-preset-values; without this script the page shows the preset it was drawn with).
(function () {
  "use strict";
  function follow(form) {
    var fields = form.querySelectorAll("[data-preset-values]");
    function show(preset) {
      form.querySelectorAll("[data-preset-shown]").forEach(function (el) {
        el.textContent = preset.charAt(0).toUpperCase() + preset.slice(1);
      });
      fields.forEach(function (field) {
        var values = JSON.parse(field.dataset.presetValues);
        if (!(preset in values)) return;
        if (field.tagName === "SELECT") {
          var blank = field.querySelector("option[value='']");
          if (blank) blank.textContent = values[preset] + " (preset)";
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
