// The page brought up to date in place with what the server sent after the last hand (see
// ledger/views/queue.py), by htmx (its oob swaps, and its attributes on the new form); and
// the copy of the page the phone keeps for opening it offline, refreshed after.

// The copy of this page the phone keeps for opening it without a connection (sw.js keeps
// the pages it loads): a page updated in place is newer than it, so a few seconds after
// the last save the kept copy is replaced by the page as the server draws it now; else a
// phone reopened offline would number its hands from an old page.
let keepTimer = null;
export function keepPage(gameUrl) {
  if (!window.caches || !navigator.serviceWorker || !navigator.serviceWorker.controller) return;
  clearTimeout(keepTimer);
  keepTimer = setTimeout(async () => {
    try {
      const name = (await caches.keys()).find((key) => key.startsWith("ts-pages-"));
      if (!name) return;
      const response = await fetch(gameUrl + "?kept=1",
        { credentials: "same-origin", redirect: "manual" });
      if (!response.ok || response.type !== "basic") return;
      const cache = await caches.open(name);
      await cache.put(new URL(gameUrl, location.href).pathname, response);
    } catch { /* kept as it was */ }
  }, 3000);
}

function blur() {
  if (document.activeElement && document.activeElement.blur) document.activeElement.blur();
}

// The answer put in place: answer.page (the game is over: the page as a reload draws it)
// or answer.parts (the next hand's form and what the hand changed). keepTyped: what is typed
// in the form stays when the new form is for that same hand. Returns false when htmx or the
// place is missing (then the page is reloaded).
export function swapIn(answer, { root, hand, keepTyped }) {
  const entry = document.getElementById("entry");
  const main = document.querySelector("main.page");
  const htmx = window.htmx;
  if (!htmx || !htmx.swap || !(answer.page ? main : entry)) return false;
  if (answer.page) {
    // its scripts already run here: the page's own, not the new copies
    const banner = document.getElementById("offline-banner");
    htmx.swap(main, answer.page, { swapStyle: "innerHTML" },
      { select: "main.page > :not(script)" });
    const fresh = document.getElementById("offline-queue");
    if (fresh && fresh !== root) fresh.replaceWith(root);
    if (banner) main.insertBefore(banner, main.firstChild);
    blur();
    window.scrollTo(0, 0);
    return true;
  }
  // hands kept offline, sent now, while the next one is being typed: the new form is for
  // that same hand, and what is typed stays (where the players of each table are fixed)
  const typed = keepTyped && hand.form() && hand.number() === String(answer.next)
    ? hand.fields() : null;
  const focused = typed && document.activeElement && hand.form().contains(document.activeElement)
    ? document.activeElement.name : null;
  // nothing focused in the part replaced: htmx would focus its new copy (the Save button),
  // a layout of the page in the middle of the swap, for a focus that goes elsewhere after
  if (document.activeElement && entry.contains(document.activeElement)) blur();
  htmx.swap(entry, answer.parts, { swapStyle: "outerHTML" });
  hand.forget();
  if (typed && hand.form()) {
    hand.put(typed);
    const again = focused && hand.field(focused);
    if (again && again.focus) again.focus({ preventScroll: true });
    return true;
  }
  // the next hand: the new score in view and the focus on its first choice, keypad down
  // (app.js: nextHand)
  blur();
  document.dispatchEvent(new CustomEvent("tablestakes:next-hand"));
  return true;
}
