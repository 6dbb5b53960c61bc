// The page's words, filled in: "Hand {number}" with {number: 3} -> "Hand 3". The words
// themselves are the server's (ledger/presentation/queue.py, handed over as JSON).
export function fill(text, values = {}) {
  return String(text ?? "").replace(/\{(\w+)\}/g, (whole, name) =>
    name in values ? String(values[name]) : whole);
}

// The JSON a page hands over in <script type="application/json" id=...> (json_script),
// read once for each text: a Save reads the form's fields and the game's record several
// times (the record of a 300-hand game is ~40 KB), and an answer swapped in brings new
// elements. Callers never change what it returns (it is the next reader's too).
const parsed = new WeakMap();
export function readJSON(doc, id, fallback = null) {
  const el = doc.getElementById(id);
  if (!el) return fallback;
  const text = el.textContent;
  const known = parsed.get(el);
  if (known && known.text === text) return known.value;
  try {
    const value = JSON.parse(text);
    parsed.set(el, { text, value });
    return value;
  } catch { return fallback; }
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
