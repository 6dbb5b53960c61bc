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

// An element's whole HTML in ``html`` from ``start`` (where its opening <div is): to its
// matching </div>, counted (the server's HTML: a "<div" in a name or a text is escaped).
function divEnd(html, start) {
  const tag = /<div\b|<\/div>/g;
  tag.lastIndex = start;
  let depth = 0;
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    depth += m[0] === "</div>" ? -1 : 1;
    if (!depth) return m.index + m[0].length;
  }
  return -1;
}

// The answer's score (its #score, out of band, and the strip of totals its next hand's card
// starts with) apart from the rest: {score, strip, rest}, rest without the #score; null
// when it has none.
export function scoreApart(parts) {
  const start = parts.indexOf('<div id="score" hx-swap-oob="true">');
  const end = start < 0 ? -1 : divEnd(parts, start);
  if (end < 0) return null;
  const rest = parts.slice(0, start) + parts.slice(end);
  const from = rest.indexOf('<div class="score-strip"');
  const to = from < 0 ? -1 : divEnd(rest, from);
  return { score: parts.slice(start, end), strip: to < 0 ? "" : rest.slice(from, to), rest };
}

// The answer put in place: answer.page (the game is over: the page as a reload draws it)
// or answer.parts (the next hand's form and what the hand changed). keepTyped: what is typed
// in the form stays when the new form is for that same hand. Returns false when htmx or the
// place is missing (then the page is reloaded).
// paint (a function whose promise resolves once a frame is drawn): the new score first, alone
// (the tiles, and the strip that stands for them when they are scrolled away), and the rest
// of the parts (the next hand's form, the sheet's row, the chart, the totals, the undo) once
// it is drawn: together they held the score back by the form's layout and the page's
// paint (a Save's answer on a slow phone). Then it returns a promise of true, resolved once
// all is in place: the page is then exactly as after the parts put in at once.
export function swapIn(answer, { root, hand, keepTyped, paint = null }) {
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
  const apart = paint && !typed ? scoreApart(answer.parts) : null;
  if (!apart) return putRest(entry, answer.parts, hand, typed);
  htmx.swap(entry, apart.score, { swapStyle: "none" });  // the #score, out of band
  const strip = entry.querySelector(".score-strip");
  if (strip && apart.strip) {
    const made = document.createElement("template");
    made.innerHTML = apart.strip;
    strip.replaceWith(made.content);
  }
  return paint().then(() => {
    const place = document.getElementById("entry");  // (gone: the page was drawn anew)
    return place ? putRest(place, apart.rest, hand, null) : true;
  });
}

function putRest(entry, parts, hand, typed) {
  const focused = typed && document.activeElement && hand.form().contains(document.activeElement)
    ? document.activeElement.name : null;
  // nothing focused in the part replaced: htmx would focus its new copy (the Save button),
  // a layout of the page in the middle of the swap, for a focus that goes elsewhere after
  if (document.activeElement && entry.contains(document.activeElement)) blur();
  window.htmx.swap(entry, parts, { swapStyle: "outerHTML" });
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
