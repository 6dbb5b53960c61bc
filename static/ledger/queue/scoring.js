// The hands kept on this phone, scored by the phone's core (static/ledger/core/client.mjs)
// while there is no connection: the game's record as the server last drew it (the form's
// #game-record, export_game's JSON) with the hands kept added, and the result shown in the
// page's own tiles, marked "not yet saved" until the server's replaces it. The words are the
// page's (#script-words: "offline"); the numbers are written in the page's language.
// No DOM in the functions above createScoring: tested by node --test.

export const DRAW = "-draw-";  // ledger/forms/fields.py
const KNOCK = "knock";
const NO_TIE = "-no-tie-";  // ledger/forms/hands.py
const NOBODY = "-nobody-";  // ledger/forms/fields.py

function count(text) {
  const t = String(text ?? "").trim();
  if (!t) return null;
  return /^\d+$/.test(t) ? parseInt(t, 10) : NaN;
}

// One table of a hand, as the form's _duel_entry makes it; null when the phone cannot
// (cards typed: the server reads them).
function duelEntry(values, table, players) {
  const knocker = values.get(table.knocker);
  if (!knocker) return undefined;
  if (knocker === DRAW) return { draw: true };
  if (table.seats.some((seat) => (values.get(seat[1]) || "").trim())) return null;
  const kind = values.get(table.kind) || KNOCK;
  const counts = {};
  for (let c = 0; c < players.length; c++) {
    let value = count(values.get(table.seats[c][0]));
    if (Number.isNaN(value)) return undefined;
    if (players[c] === knocker && kind !== KNOCK) value = value || 0;
    if (value === null) return undefined;
    counts[players[c]] = value;
  }
  const entry = { knocker };
  if (kind === "big_gin") entry.big_gin = true;
  else if (kind === "gin" && counts[knocker]) entry.gin = true;
  const opponent = players.find((name) => name !== knocker);
  entry.deadwood = { [knocker]: counts[knocker], [opponent]: counts[opponent] };
  return entry;
}

// The hand of the record for a hand typed in the form ([[name, value]...], the form's
// schema: #hand-form-fields), or null when the phone cannot make it (CAP-IT's rounds, cards
// typed, a field not filled in as the form wants: the server's form says why).
export function entryOf(fields, schema, record) {
  const tables = (schema && schema.tables) || [];
  const values = new Map(fields);
  if (!tables.length) return roundOf(values, record, schema);
  const parts = [];
  for (const table of tables) {
    const picked = table.picked.map((name) => values.get(name));
    const players = picked.every(Boolean) ? picked : table.players;
    const entry = duelEntry(values, table, players);
    if (!entry) return null;
    parts.push(entry);
  }
  // by its tables or as one duel, as the form says (schema.by_tables: forms/hands.py entry)
  if (schema.by_tables) {
    let entry = { tables: parts };
    const cut = values.get("cut_loser");
    if (cut && cut !== NO_TIE) entry.cut_loser = cut;
    const kcRank = values.get("kc_rank");
    const kcSuit = values.get("kc_suit");
    if (schema.knock_card && kcRank && kcSuit) entry = { knock_card: kcRank + kcSuit, ...entry };
    return entry;
  }
  const [entry] = parts;
  const rank = values.get("up_rank");
  const suit = values.get("up_suit");
  if (!entry.draw && rank && suit) return { upcard: rank + suit, ...entry };
  return entry;
}

// A CAP-IT round as the form's entry() makes it: who went out (or nobody) and each
// player's points (pts_0... in the record's seat order); null when one is not a number.
export function roundOf(values, record, schema) {
  const out = values.get("went_out");
  if (!out || !(schema && schema.rounds)) return null;
  const wentOut = out === NOBODY ? null : out;
  const points = {};
  for (let j = 0; j < record.players.length; j++) {
    const name = record.players[j];
    const value = count(values.get(`pts_${j}`));
    if (Number.isNaN(value)) return null;
    if (name === wentOut && value === null) continue;
    if (value === null) return null;  // the form asks for it
    points[name] = value || 0;
  }
  return { went_out: wentOut, points };
}

// The record with the hands kept added (a copy).
export function recordWith(record, entries) {
  return { ...record, hands: [...(record.hands || []), ...entries] };
}

// Each tile's number as the page draws it (ledger/presentation/money.py scores): the running
// total, or for Hollywood the net over the three games, signed.
export function tilesOf(result) {
  const winner = result.winner;
  const leaders = new Set(Array.isArray(winner) ? winner : [winner]);
  const columns = result.facts && result.facts.columns;
  return Object.entries(result.totals || {}).map(([key, t]) => ({
    key, signed: !!columns,
    value: columns ? ((result.net || {})[key] || 0) : (t.final || 0),
    leader: leaders.has(key),
  }));
}

// A number as the server writes it for the page's language (Babel's grouping; "+" for a
// signed one above nothing, the minus sign of the money filters).
export function numberText(value, lang, signed = false) {
  let text;
  try { text = new Intl.NumberFormat(lang || "en").format(Math.abs(value)); }
  catch { text = String(Math.abs(value)); }
  if (value < 0) return "\u2212" + text;
  return signed && value > 0 ? "+" + text : text;
}

// Which field of the form a problem of the core is at (forms/hands.py _place): the hand's
// table and player; "__all__" when it names none.
export function fieldOf(problem, schema) {
  const tables = (schema && schema.tables) || [];
  const index = (problem.table || 1) - 1;
  const table = tables[index];
  if (!table) return "__all__";
  const i = index + 1;
  const position = table.players.indexOf(problem.player);
  if (problem.field === "deadwood" && position >= 0) return `t${i}_c${position}`;
  if (problem.field === "cards" && position >= 0) return `t${i}_cards${position}`;
  if (problem.field === "knocker") return `t${i}_knocker`;
  if (problem.field === "upcard") return "up_rank";
  if (problem.field === "cut_loser") return "cut_loser";
  return "__all__";
}

// -- the page ---------------------------------------------------------------------------------
// The phone's result in the page's tiles ("not yet saved"), or the server's numbers back
// (result null). words: #script-words "offline" and "lang".
export function showResult(doc, result, words, single) {
  const board = doc.querySelector(".scoreboard");
  if (!board) return;
  const tiles = result ? tilesOf(result) : [];
  board.querySelectorAll(".score-tile").forEach((tile) => {
    const value = tile.querySelector(".score-value");
    if (!value) return;
    if (tile.dataset.server === undefined) {
      tile.dataset.server = value.textContent;
      tile.dataset.serverLeader = tile.classList.contains("leader") ? "1" : "";
    }
    const mine = tiles.find((t) => t.key === tile.dataset.key);
    value.textContent = mine ? numberText(mine.value, words.lang, mine.signed) : tile.dataset.server;
    tile.classList.toggle("leader", mine ? mine.leader : !!tile.dataset.serverLeader);
  });
  board.classList.toggle("unsaved", !!result);
  // the score in one line pinned above the form (templates/ledger/_strip.html)
  doc.querySelectorAll(".score-strip .strip-item[data-key]").forEach((item) => {
    const value = item.querySelector("b");
    if (!value) return;
    if (item.dataset.server === undefined) item.dataset.server = value.textContent;
    const mine = tiles.find((t) => t.key === item.dataset.key);
    value.textContent = mine ? numberText(mine.value, words.lang, mine.signed) : item.dataset.server;
    item.classList.toggle("unsaved", !!mine);
  });
  if (result) {
    let note = doc.getElementById("score-pending");
    if (!note) {
      note = doc.createElement("p");
      note.id = "score-pending";
      note.className = "score-pending";
      board.parentNode.insertBefore(note, board.nextSibling);
    }
    note.textContent = words.offline.unsaved;
    note.dataset.phone = "1";
  }
  // who deals next, where one table's dealer is on the page
  const dealer = result && result.next && result.next.dealer;
  const next = doc.getElementById("next");
  const shown = next && next.querySelectorAll(".dealer-badge + b");
  if (single && dealer && shown && shown.length === 1) {
    shown[0].textContent = dealer;
    next.classList.remove("next-unknown");
    next.classList.add("next-unsaved");
  }
}
