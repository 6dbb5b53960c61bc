// The page's words, filled in: "Hand {number}" with {number: 3} -> "Hand 3". The words
// themselves are the server's (ledger/presentation/queue.py, handed over as JSON).
export function fill(text, values = {}) {
  return String(text ?? "").replace(/\{(\w+)\}/g, (whole, name) =>
    name in values ? String(values[name]) : whole);
}

// The JSON a page hands over in <script type="application/json" id=...> (json_script).
export function readJSON(doc, id, fallback = null) {
  const el = doc.getElementById(id);
  if (!el) return fallback;
  try { return JSON.parse(el.textContent); } catch { return fallback; }
}
