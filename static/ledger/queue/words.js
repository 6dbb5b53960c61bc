// The page's words, filled in: "Hand {number}" with {number: 3} -> "Hand 3". The words
// themselves are the server's (ledger/presentation/queue.py, handed over as JSON).
export function fill(text, values = {}) {
  return String(text ?? "").replace(/\{(\w+)\}/g, (whole, name) =>
    name in values ? String(values[name]) : whole);
}

// The JSON a page hands over in <script type="application/json" id=...> (json_script),
// read once for each element: a Save reads the form's fields and the game's record several
// times (the record of a 300-hand game is ~40 KB: each read of an element's text is a copy
// of it), and an answer swapped in brings new elements. None of the page's scripts changes
// one in place; if anything does, what was read is forgotten (an observer). Callers never
// change what it returns (it is the next reader's too).
const read = new WeakMap();
function known(doc, id) {
  const el = doc.getElementById(id);
  if (!el) return null;
  let entry = read.get(el);
  if (!entry) {
    entry = { text: el.textContent, value: undefined, parsed: false };
    read.set(el, entry);
    const watch = new MutationObserver(() => { read.delete(el); watch.disconnect(); });
    watch.observe(el, { childList: true, characterData: true, subtree: true });
  }
  return entry;
}
export function readJSON(doc, id, fallback = null) {
  const entry = known(doc, id);
  if (!entry) return fallback;
  if (!entry.parsed) {
    try { entry.value = JSON.parse(entry.text); entry.parsed = true; } catch { return fallback; }
  }
  return entry.value;
}
// ... and its text as it is on the page (null: no such element)
export function readText(doc, id) {
  const entry = known(doc, id);
  return entry ? entry.text : null;
}

// The words of a count in the page's language: ``words.plurals[key]`` holds one sentence
// per plural category of the language (CLDR's "one", "few", "many", "other"...: the
// server's ``queue_plurals``: Russian's "one" is 21 as well), picked with Intl.PluralRules;
// without them (or without Intl) ``many``. One itself is ``forms["=1"]``, else ``one``.
export function counted(words, key, count, one, many) {
  const forms = words.plurals && words.plurals[key];
  // one itself: the language's words for exactly one ("=1"), else the page's own
  if (count === 1) return fill(forms && forms["=1"] !== undefined ? forms["=1"] : one, { count });
  if (forms && typeof Intl !== "undefined" && Intl.PluralRules) {
    try {
      const category = new Intl.PluralRules(words.lang || "en").select(count);
      const text = forms[category] ?? forms.other;
      if (text !== undefined) return fill(text, { count });
    } catch { /* an unknown language: the plain forms */ }
  }
  return count === 1 ? fill(one, { count }) : fill(many, { count });
}
