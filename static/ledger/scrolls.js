// Wide tables (.sheet-wrap.scrolls: the score sheet, the standings, the book's tables):
// when one is wider than the screen its first column stays pinned (app.css) and its hint
// "More columns to the right" shows; when it fits the hint is hidden. Without this script
// the hint always shows. Checked at the first frame, on resize and after htmx swaps a part in.
(function () {
  "use strict";
  var pending = false;
  function check() {
    pending = false;
    var wraps = document.querySelectorAll(".sheet-wrap.scrolls");
    for (var i = 0; i < wraps.length; i++) {
      var wrap = wraps[i];
      var over = wrap.scrollWidth > wrap.clientWidth + 1;
      wrap.classList.toggle("overflows", over);
      var hint = wrap.previousElementSibling;
      if (hint && hint.classList.contains("scroll-hint")) hint.hidden = !over;
    }
  }
  function later() {
    if (pending) return;
    pending = true;
    window.requestAnimationFrame(check);
  }
  // at the first frame, where the page is laid out anyway (not while it loads: that would
  // lay it out once more before it is shown)
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", later);
  else later();
  window.addEventListener("resize", later);
  document.addEventListener("htmx:afterSettle", later);
})();
