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
  if (!m || el.value === "knock") return;
  var form = el.form;
  var knocker = form.querySelector("input[name=" + m[1] + "_knocker]:checked");
  if (!knocker) return;
  var labels = form.querySelectorAll("input[name^=" + m[1] + "_c]");
  labels.forEach(function (input) {
    if (!/_c\d+$/.test(input.name)) return;  // counts only, not the cards (t1_cards0)
    var label = form.querySelector("label[for=" + input.id + "]");
    if (label && label.textContent.indexOf(knocker.value + "'s") === 0) { input.value = ""; }
  });
});
document.addEventListener("click", function (event) {
  // A share link's box: one tap selects the whole link, ready to copy.
  var el = event.target;
  if (el.matches && el.matches("input.copy")) { el.select(); }
});
