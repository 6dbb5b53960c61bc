// The hands kept on this phone, scored by the phone's core (static/ledger/core/client.mjs)
// while there is no connection: the game's record as the server last drew it (the form's
// #game-record, export_game's JSON) with the hands kept added, and the result shown in the
// page's own tiles, marked "not yet saved" until the server's replaces it. The words are the
// page's (#script-words: "offline"); the numbers are written in the page's language.
// No DOM in the functions above createScoring: tested by node --test.

import { fill } from "./words.js";

// How a hand is made from the form's fields, and where a problem goes, is the form's: the
// schema (#hand-form-fields, ledger/forms/queue.py queue_fields and hand_making) names every
// field and sentinel; nothing of forms/hands.py is written here again.

function count(text) {
  const t = String(text ?? "").trim();
  if (!t) return null;
  return /^\d+$/.test(t) ? parseInt(t, 10) : NaN;
}

// One table of a hand, as the form's _duel_entry makes it; null when the phone cannot
// (cards typed: the server reads them).
function duelEntry(values, table, players, schema) {
  const knocker = values.get(table.knocker);
  if (!knocker) return undefined;
  if (knocker === table.draw) return { draw: true };
  if (table.seats.some((seat) => (values.get(seat[1]) || "").trim())) return null;
  const kind = values.get(table.kind) || schema.plain;
  const counts = {};
  for (let c = 0; c < players.length; c++) {
    let value = count(values.get(table.seats[c][0]));
    if (Number.isNaN(value)) return undefined;
    if (players[c] === knocker && kind !== schema.plain) value = value || 0;
    if (value === null) return undefined;
    counts[players[c]] = value;
  }
  const entry = { knocker };
  const made = (schema.kinds || {})[kind];
  if (made && (!made.with_count || counts[knocker])) entry[made.flag] = true;
  const opponent = players.find((name) => name !== knocker);
  entry.deadwood = { [knocker]: counts[knocker], [opponent]: counts[opponent] };
  return entry;
}

// A card from the form's rank and suit fields ({rank, suit}: their names), or "".
function cardOf(values, fields) {
  if (!fields) return "";
  const rank = values.get(fields.rank);
  const suit = values.get(fields.suit);
  return rank && suit ? rank + suit : "";
}

// The hand of the record for a hand typed in the form ([[name, value]...], the form's
// schema: #hand-form-fields), or null when the phone cannot make it (cards typed, a field
// not filled in as the form wants: the server's form says why).
export function entryOf(fields, schema, record) {
  const tables = (schema && schema.tables) || [];
  const values = new Map(fields);
  if (!tables.length) return roundOf(values, record, schema);
  const parts = [];
  for (const table of tables) {
    const picked = table.picked.map((name) => values.get(name));
    const players = picked.every(Boolean) ? picked : table.players;
    const entry = duelEntry(values, table, players, schema);
    if (!entry) return null;
    parts.push(entry);
  }
  // by its tables or as one duel, as the form says (schema.by_tables: forms/hands.py entry)
  if (schema.by_tables) {
    let entry = { tables: parts };
    const cut = schema.cut && values.get(schema.cut.field);
    if (cut && cut !== schema.cut.no_tie) entry.cut_loser = cut;
    const knockCard = schema.knock_card && cardOf(values, schema.knock_card_fields);
    if (knockCard) entry = { knock_card: knockCard, ...entry };
    return entry;
  }
  const [entry] = parts;
  const upcard = cardOf(values, schema.upcard);
  if (!entry.draw && upcard) return { upcard, ...entry };
  return entry;
}

// A CAP-IT round as the form's entry() makes it: who went out (or nobody) and each
// player's points (the round's points fields, in the record's seat order); null when one is
// not a number.
export function roundOf(values, record, schema) {
  const round = schema && schema.rounds && schema.round;
  const out = round && values.get(round.went_out);
  if (!out) return null;
  const wentOut = out === round.nobody ? null : out;
  const points = {};
  for (let j = 0; j < record.players.length; j++) {
    const name = record.players[j];
    const value = count(values.get(round.points[j]));
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
// total; for Hollywood the net over the three games, signed, with each game's total
// (detail); for streets the game points G, signed, with each street's total.
export function tilesOf(result) {
  const winner = result.winner;
  const leaders = new Set(Array.isArray(winner) ? winner : [winner]);
  const columns = result.facts && result.facts.columns;
  const streets = result.streets && result.streets.length ? result.streets : null;
  return Object.entries(result.totals || {}).map(([key, t]) => {
    if (streets) {
      const g = (result.game_points || {})[key] || 0;
      return { key, signed: true, value: g, leader: winner ? leaders.has(key) : g > 0,
        detail: { words: "streets", values: streets.map((s) => s.totals[key].final) } };
    }
    if (columns) {
      return { key, signed: true, value: (result.net || {})[key] || 0, leader: leaders.has(key),
        detail: { words: "games", values: (result.columns || []).map((c) => c.totals[key].final) } };
    }
    return { key, signed: false, value: t.final || 0, leader: leaders.has(key) };
  });
}

// A number as the server writes it for the page's language (Babel's grouping; "+" for a
// signed one above nothing, the minus sign of the money filters).
export function numberText(value, lang, signed = false) {
  return intlText(value, lang, signed);
}

function intlText(value, lang, signed) {
  let text;
  try { text = new Intl.NumberFormat(lang || "en").format(Math.abs(value)); }
  catch { text = String(Math.abs(value)); }
  if (value < 0) return "\u2212" + text;
  return signed && value > 0 ? "+" + text : text;
}

// Which field of the form a problem of the core is at (forms/hands.py _place, as the
// schema's places say it, forms/queue.py _AT): a field of the whole hand by name, the
// player's points in a round, a key of the problem's table (its knocker) or the player's
// seat field at the table (the count, the cards); "__all__" when it names none.
// players: the record's players (a round's points fields are in their order).
export function fieldOf(problem, schema, players = []) {
  const place = ((schema && schema.places) || {})[problem.field || ""];
  if (!place) return "__all__";
  if (place.field) return place.field;
  if (place.round) {
    const j = players.indexOf(problem.player);
    return (j >= 0 && schema.round && schema.round.points[j]) || "__all__";
  }
  const table = (schema.tables || [])[(problem.table || 1) - 1];
  if (!table) return "__all__";
  if (place.table) return table[place.table] || "__all__";
  const position = table.players.indexOf(problem.player);
  return position >= 0 ? table.seats[position][place.seat] : "__all__";
}

// The core's English words with its card codes as a page writes a card ("the up-card 7H" ->
// "the up-card 7♥": presentation/problems.py cards_shown).
function cardsShown(text, suits) {
  return String(text || "").replace(/(?<=up-card )(10|[2-9TJQKA])([SHDC])\b/g,
    (whole, rank, suit) => rank + ((suits || {})[suit] || suit));
}

// A problem's sentence in the page's language (presentation/problems.py words): the code's
// words, with the core's numbers where it gave them all.
function sentenceOf(problem, words) {
  const numbered = (words.numbered || {})[problem.code];
  const values = problem.values || {};
  if (numbered) {
    const wanted = [...numbered.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    if (wanted.every((name) => name in values)) return fill(numbered, values);
  }
  return (words.sentences || {})[problem.code] || problem.text || "";
}

function named(problem, what, words) {
  const sentence = sentenceOf(problem, words);
  if (!problem.player) return sentence;
  const label = what && (words.labels || {})[what];
  const where = label ? fill(label, { name: problem.player }) : problem.player;
  return fill(words.named, { where, problem: sentence });
}

// The words a refusal puts at the field (null: above the form), as the server's form puts
// them (forms/hands.py _place and presentation/problems.py field_words): on an English page
// the core's own words, else the code's sentence named after the player and what the field
// holds, or with the hand's place above the form. words: #phone-words "refusals".
export function refusalText(problem, field, words) {
  const what = (words.holds || {})[problem.field || ""] || null;
  if (words.core) {
    if (!field) return cardsShown(problem.line, words.suits);
    if (problem.hint) return cardsShown(problem.hint, words.suits);
    const label = what && problem.player && (words.labels || {})[what];
    const text = label ? fill(words.named, { where: fill(label, { name: problem.player }),
      problem: problem.text }) : problem.text;
    return cardsShown(text, words.suits);
  }
  if (field) return named(problem, what, words);
  const sentence = named(problem, null, words);
  if (!problem.hand) return sentence;
  let place = fill(words.hand, { number: problem.hand });
  if (problem.round !== null && problem.round !== undefined) {
    place = fill(words.round, { hand: place, number: problem.round });
  }
  if (problem.table !== null && problem.table !== undefined) {
    place = fill(words.table, { hand: place, number: problem.table });
  }
  return fill(words.named, { where: place, problem: sentence });
}

// The core's refusal of the last hand as the form shows it: {field: [words]}, each problem
// at its field, the others above the form ("__all__"); null when the page has no words.
export function refusalErrors(where, schema, players, words) {
  if (!words) return null;
  const errors = {};
  where.forEach((problem) => {
    const field = fieldOf(problem, schema, players);
    const text = refusalText(problem, field === "__all__" ? null : field, words);
    (errors[field] = errors[field] || []).push(text);
  });
  return Object.keys(errors).length ? errors : null;
}

// Names joined as the server joins them (presentation/words.py names): "Ann", "Ann and Bob",
// "Ann, Bob and Cy". and: the page's "{names} and {last}".
export function namesText(value, and) {
  if (value === null || value === undefined) return "";
  if (!Array.isArray(value)) return String(value);
  if (value.length <= 1) return value.join("");
  return fill(and, { names: value.slice(0, -1).join(", "), last: value[value.length - 1] });
}

// Who plays a three-player table's hand, who plays first first (the core's hand_pair: the
// roles that play, in words.playing's order).
function handPair(roles, playing) {
  return Object.keys(roles).filter((name) => playing.includes(roles[name]))
    .sort((a, b) => playing.indexOf(roles[a]) - playing.indexOf(roles[b]));
}

// The sentence of a count in the page's language: forms holds one per plural category
// (CLDR's, as presentation/phone.py hands them over), picked with Intl.PluralRules.
function pluralOf(forms, count, lang) {
  let category = "other";
  try { category = new Intl.PluralRules(lang || "en").select(count); } catch { /* other */ }
  return forms[category] ?? forms.other ?? forms.one ?? "";
}

// Hollywood's line of the games still open and those over (presentation/flash.py
// open_games_text: "Still open: games 2 and 3 (game 1 over)."), from the core's columns;
// "" when none is open. words: #phone-words "next".
export function openGamesText(result, words, lang) {
  const forms = words && words.open_games;
  const columns = result.columns || [];
  const still = columns.filter((c) => !c.complete).map((c) => String(c.number));
  const over = columns.filter((c) => c.complete).map((c) => String(c.number));
  if (!forms || !still.length) return "";
  let text = fill(pluralOf(forms.still, still.length, lang),
    { games: namesText(still, words.and) });
  if (over.length) {
    text += " " + fill(pluralOf(forms.over, over.length, lang),
      { games: namesText(over, words.and) });
  }
  return text + ".";
}

// The next hand's panel (presentation/game_page.py next_panel, templates/ledger/_next.html)
// from the core's result, in the page's words (#phone-words "next"): its title, each
// table's matchup with the role chips and dealer, the dealer side, who sits out; CAP-IT's
// round, contract and dealer; Hollywood's open games (null: not Hollywood). pairs: each
// table's two players, for the form's pickers. lang: the page's language.
export function panelOf(result, words, lang) {
  const next = result.next || {};
  const roles = next.roles || {};
  const facts = result.facts || {};
  const number = (result.hands || []).length + 1;
  const playing = words.playing || [];
  const sitsOut = Object.keys(roles).filter((name) => !playing.includes(roles[name]));
  const chip = (name) => (words.chips || {})[roles[name]] || null;
  if (facts.rounds) {
    return { rounds: true, title: fill(words.round, { number: next.round }),
      contract: (words.contracts || {})[next.contract] || next.contract || "",
      dealer: namesText(next.dealer, words.and), tables: [], pairs: [],
    sitsOut: sitsOut.join(", ") };
  }
  let pairs;
  let dealers;
  if (Array.isArray(next.tables) && next.tables.length) {
    pairs = next.tables.map((t) => (Array.isArray(t) ? t : t.players));
    dealers = next.tables.map((t, i) => (Array.isArray(t)
      ? (Array.isArray(next.dealer) ? next.dealer[i] : null) : t.dealer));
  } else {
    pairs = [facts.hand_roles && facts.hand_roles.length ? handPair(roles, playing)
      : [...(result.players || [])]];
    dealers = [next.dealer];
  }
  const tables = pairs.map(([a, b], i) => ({ a, b, aChip: chip(a), bChip: chip(b),
    dealer: namesText(dealers[i], words.and) }));
  return { rounds: false, title: fill(words.hand, { number }), tables, pairs,
    dealerSide: next.dealer_side ? fill(words.dealer_side, { side: next.dealer_side }) : "",
    openGames: facts.columns && words.open_games ? openGamesText(result, words, lang) : null,
    sitsOut: sitsOut.join(", ") };
}

// -- money, as the server writes it (presentation/money.py format_money) ----------------------
const MINUS = "\u2212";
const LETTER_DIGIT = /(?<=[\p{L}\p{M}])(?=\d)|(?<=\d)(?=[\p{L}\p{M}])/gu;

// One amount by a locale's pattern parts (#phone-words "money": presentation/phone.py
// money_format), as money.py's _Formatter writes it: digits of a decimal string, never a
// float. negative: the pattern's negative form.
function patterned(whole, fraction, negative, parts, currency) {
  let w = whole.replace(/^0+(?=\d)/, "");
  if (w.length < parts.int_min) w = "0".repeat(parts.int_min - w.length) + w;
  let [size, later] = parts.grouping;
  if (w.length > size) {
    const groups = [];
    while (w.length > size) {
      groups.unshift(w.slice(-size));
      w = w.slice(0, -size);
      size = later;
    }
    w = [w, ...groups].join(parts.group);
  }
  if (fraction) w += parts.decimal + fraction;
  const written = parts.prefix[negative ? 1 : 0] + w + parts.suffix[negative ? 1 : 0];
  return currency ? written.replace(LETTER_DIGIT, "\u00a0") : written;
}

// An amount (the core's decimal string, "-2.02") as format_money writes it on a page: sign
// "+" before a gain (the signed filter), currency: with the currency's symbol and at least
// its decimals (the money filter). null when the page handed no pattern over.
export function moneyText(amount, fmt, { sign = false, currency = false } = {}) {
  if (!fmt) return null;
  const text = String(amount ?? "").trim();
  const m = /^([+\-\u2212]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!text || !m || (!m[2] && !m[3])) return text;
  const parts = currency ? fmt.currency : fmt.plain;
  if (!parts) return null;
  let fraction = m[3] || "";
  if (currency && fraction.length < fmt.minor) fraction = fraction.padEnd(fmt.minor, "0");
  const whole = m[2] || "0";
  const zero = /^0*$/.test(whole + fraction);
  const direction = zero ? 0 : (m[1] === "-" || m[1] === MINUS ? -1 : 1);
  if (direction === 0 || (direction > 0 && !sign)) {
    return patterned(whole, fraction, false, parts, currency);
  }
  const written = patterned(whole, fraction, true, parts, currency);
  return written.replace(fmt.minus, direction < 0 ? MINUS : fmt.plus);
}

// A finished game as its page says it (game_detail.html's #over, _money.html): the heading's
// winner sentence, each player's money, the payments. words: #phone-words.
export function endOf(result, phone) {
  const end = phone.end || {};
  const winner = result.winner;
  let sentence = "";
  if (Array.isArray(winner) && winner.length) sentence = fill(end.tie, { names: winner.join(" & ") });
  else if (winner) sentence = (end.winners || {})[winner] || "";
  const sign = (amount) => {
    const n = /^[-\u2212]/.test(String(amount)) ? -1 : /^\+?0*\.?0*$/.test(String(amount)) ? 0 : 1;
    return n > 0 ? "pos" : n < 0 ? "neg" : "";
  };
  const lines = Object.entries(result.money || {}).map(([name, amount]) => ({
    name, amount: moneyText(amount, phone.money, { sign: true }), css: sign(amount) }));
  const payments = (result.payments || []).map((p) => ({ payer: p.from, payee: p.to,
    amount: moneyText(p.amount, phone.money, { currency: !!phone.currency }) }));
  const written = lines.every((l) => l.amount !== null) && payments.every((p) => p.amount !== null);
  return { over: end.over, sentence, money: end.money, currency: phone.currency || "",
    cover: end.cover || "", lines: written ? lines : [], payments: written ? payments : [] };
}

function escapeHTML(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// The phone's end of the game drawn where the form was (#over, as the server draws it, marked
// not yet saved), the form hidden; null: the form back.
export function drawEnd(doc, end, phone) {
  const entry = doc.getElementById("entry");
  let over = doc.getElementById("phone-over");
  if (!end) {
    if (over) over.remove();
    if (entry) entry.hidden = false;
    return;
  }
  if (!entry) return;
  if (!over) {
    over = el(doc, "section", "card over unsaved");
    over.id = "phone-over";
    entry.before(over);
  }
  entry.hidden = true;
  const head = el(doc, "h2", "", end.over);
  if (end.sentence) head.append(": ", el(doc, "span", "winner", end.sentence));
  const box = el(doc, "div", "money-box");
  const title = el(doc, "h3", "money-head", end.money);
  if (end.currency) title.append(" ", el(doc, "small", "", end.currency));
  box.append(title);
  const table = el(doc, "table", "money-grid");
  const body = el(doc, "tbody");
  end.lines.forEach((line) => {
    const tr = el(doc, "tr");
    const th = el(doc, "th", "money-name", line.name);
    th.scope = "row";
    const td = el(doc, "td", `num money ${line.css}`.trim(), line.amount);
    td.dataset.player = line.name;
    tr.append(th, td);
    body.append(tr);
  });
  table.append(body);
  box.append(table);
  if (end.cover) box.append(el(doc, "p", "help cover-line", end.cover));
  if (end.payments.length) {
    const ul = el(doc, "ul", "payments");
    end.payments.forEach((p) => {
      const li = el(doc, "li", "payment");
      const span = el(doc, "span", "pay-text");
      // the catalog's sentence (trusted HTML), with the names and amount escaped
      span.innerHTML = fill(phone.end.pays, { payer: escapeHTML(p.payer),
        payee: escapeHTML(p.payee), amount: escapeHTML(p.amount) });
      li.append(span);
      ul.append(li);
    });
    box.append(ul);
  }
  const note = el(doc, "p", "score-pending", phone.unsaved || "");
  over.replaceChildren(head, box, ...(phone.unsaved ? [note] : []));
}

// -- the page ---------------------------------------------------------------------------------
// The phone's result in the page's tiles ("not yet saved") and its next hand's panel, or
// the server's back (result null). words: #script-words "offline" and "lang"; phone: the
// page's #phone-words (the panel's words; without them the panel stays the server's).
// keepPanel: the panel left as it is (a hand on its way: the panel says that hand).
export function showResult(doc, result, words, phone, { keepPanel = false } = {}) {
  const shown = showTotals(doc, result, words, phone);
  showRest(doc, result, words, phone, { keepPanel });
  return shown;
}

// a score as the points and signed filters write it: the page's pattern where it handed one
// over (presentation/phone.py), else Intl's
const scoreText = (phone) => (value, lang, signed = false) =>
  (phone && moneyText(String(value), phone.money, { sign: signed })) ||
  intlText(value, lang, signed);

// The server's numbers on the tiles and the strip, kept on them (data-server...) to draw
// them again when the phone's result goes: once the page is idle (offline.js readAhead),
// so that a Save does not write them (attributes restyle the tiles) before its totals.
export function keepServerTotals(doc) {
  doc.querySelectorAll(".scoreboard .score-tile").forEach((tile) => {
    const value = tile.querySelector(".score-value");
    if (!value || tile.dataset.server !== undefined) return;
    tile.dataset.server = value.textContent;
    tile.dataset.serverLeader = tile.classList.contains("leader") ? "1" : "";
    const detail = tile.querySelector(".score-detail");
    if (detail && tile.dataset.serverDetail === undefined) {
      tile.dataset.serverDetail = detail.textContent;
    }
  });
  doc.querySelectorAll(".score-strip .strip-item[data-key]").forEach((item) => {
    const value = item.querySelector("b");
    if (value && item.dataset.server === undefined) item.dataset.server = value.textContent;
  });
}

// Each tile's words for a result, as the tiles and the strip write them: {key: {text,
// leader, detail}} (detail: Hollywood's games or the streets under the tile, null where the
// page handed no words for it). Pure: a Save scored ahead has them made before the tap.
export function totalsOf(result, words, phone) {
  const numberText = scoreText(phone);
  const out = {};
  tilesOf(result).forEach((t) => {
    const said = t.detail && phone && phone.tiles && phone.tiles[t.detail.words];
    out[t.key] = {
      text: numberText(t.value, words.lang, t.signed), leader: t.leader,
      detail: said ? fill(said, { scores: t.detail.values
        .map((v) => numberText(v, words.lang)).join(" \u00b7 ") }) : null,
    };
  });
  return out;
}

// The totals alone: the tiles and the strip pinned above the form, marked "not yet saved"
// (.unsaved). A Save draws them first, in a frame of their own (offline.js): the rest of the
// result moves the page's layout under them and took as long again to draw. totals: the
// result's totalsOf, when it was made before.
export function showTotals(doc, result, words, phone, totals = null) {
  const board = doc.querySelector(".scoreboard");
  if (!board) return {};
  keepServerTotals(doc);  // already kept once the page was idle: nothing written then
  const mine = result ? (totals || totalsOf(result, words, phone)) : {};
  const shown = {};  // each tile's number as drawn here
  board.querySelectorAll(".score-tile").forEach((tile) => {
    const value = tile.querySelector(".score-value");
    if (!value) return;
    const it = mine[tile.dataset.key];
    value.textContent = it ? it.text : tile.dataset.server;
    tile.classList.toggle("leader", it ? it.leader : !!tile.dataset.serverLeader);
    if (it) shown[tile.dataset.key] = value.textContent;
    // Hollywood's games, the streets: each one's total under the tile, in the page's words
    const detail = tile.querySelector(".score-detail");
    if (detail) detail.textContent = it && it.detail ? it.detail : tile.dataset.serverDetail;
  });
  board.classList.toggle("unsaved", !!result);
  // the score in one line pinned above the form (templates/ledger/_strip.html)
  doc.querySelectorAll(".score-strip .strip-item[data-key]").forEach((item) => {
    const value = item.querySelector("b");
    if (!value) return;
    const it = mine[item.dataset.key];
    value.textContent = it ? it.text : item.dataset.server;
    item.classList.toggle("unsaved", !!it);
  });
  return shown;
}

// The rest of the result: the "not yet saved" line under the tiles, the streets, who plays
// next (the panel) or the game's end with its money.
export function showRest(doc, result, words, phone, { keepPanel = false } = {}) {
  const board = doc.querySelector(".scoreboard");
  if (!board) return;
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
  drawStreets(doc, result && result.streets && phone && phone.streets ? result : null, phone,
    scoreText(phone), words.lang);
  const ended = !!(result && result.complete && phone && phone.end);
  if (!keepPanel) {
    drawPanel(doc, result && !ended && phone && phone.next
      ? panelOf(result, phone.next, words.lang) : null, phone);
  }
  drawEnd(doc, ended ? endOf(result, phone) : null,
    phone && { ...phone, unsaved: words.offline && words.offline.unsaved });
}

// Where the server's tiles (drawn from its result) differ from what the phone drew from its
// own: [{key, phone, server}], none when they agree. The server's are the truth.
export function differences(doc, shown) {
  const out = [];
  doc.querySelectorAll(".scoreboard .score-tile[data-key]").forEach((tile) => {
    const key = tile.dataset.key;
    const value = tile.querySelector(".score-value");
    if (!(key in (shown || {})) || !value) return;
    const server = value.textContent.trim();
    if (server !== String(shown[key]).trim()) out.push({ key, phone: shown[key], server });
  });
  return out;
}

// The streets block (templates/ledger/_streets.html) with the phone's numbers: each open
// street's hand points, boxes and points to go, and the game points G. A street that ended
// (or reopened) on the phone is not drawn here: the block is hidden until the server's
// comes back, and the tiles say the game points and each street's total. null: the
// server's block back.
const streetsDrawn = new WeakMap();
export function drawStreets(doc, result, phone, numberText, lang) {
  const block = doc.getElementById("streets");
  const line = doc.querySelector(".streets-g");
  if (!block) return;
  if (!result) {
    if (streetsDrawn.has(block)) {
      block.innerHTML = streetsDrawn.get(block);
      block.hidden = false;
      streetsDrawn.delete(block);
    }
    if (line && streetsDrawn.has(line)) {
      line.innerHTML = streetsDrawn.get(line);
      line.hidden = false;
      streetsDrawn.delete(line);
    }
    return;
  }
  if (!streetsDrawn.has(block)) streetsDrawn.set(block, block.innerHTML);
  if (line && !streetsDrawn.has(line)) streetsDrawn.set(line, line.innerHTML);
  const cards = result.streets.map((street) =>
    [street, block.querySelector(`.street[data-street='${street.number}']`)]);
  const drawable = cards.every(([street, card]) => card &&
    card.classList.contains("street-out") === !!street.complete);
  block.hidden = !drawable;
  if (line) line.hidden = !drawable;
  if (!drawable) return;
  const words = phone.streets;
  let category = null;
  const plural = (n) => {
    try { category = new Intl.PluralRules(lang || "en").select(n); } catch { category = "other"; }
    return words.boxes[n === 1 && words.boxes.one ? "one" : category] || words.boxes.other;
  };
  cards.forEach(([street, card]) => {
    if (street.complete) return;  // an ended street's numbers stay as they were
    Object.entries(street.totals).forEach(([key, t]) => {
      const side = card.querySelector(`.street-side[data-side='${CSS.escape(key)}']`);
      if (!side) return;
      const points = side.querySelector("[data-points]");
      if (points) points.textContent = numberText(t.hand_points, lang);
      const boxes = side.querySelector(".street-line:not([data-to-go])");
      if (boxes) boxes.textContent = fill(plural(t.boxes), { n: t.boxes });
      const toGo = side.querySelector("[data-to-go]");
      if (toGo) {
        toGo.textContent = fill(words.to_go,
          { n: numberText(Math.max(street.target - t.hand_points, 0), lang) });
      }
    });
  });
  if (line) {
    Object.entries(result.game_points || {}).forEach(([key, value]) => {
      const span = line.querySelector(`span[data-side='${CSS.escape(key)}']`);
      const b = span && span.querySelector("b");
      if (b) b.textContent = numberText(value, lang, true);
      if (span) span.classList.toggle("leader", result.winner ? key === result.winner : value > 0);
    });
  }
}

// The panel as the server drew it, to put back when the phone's result goes
const drawn = new WeakMap();

function el(doc, tag, className, text) {
  const node = doc.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function dealerLine(doc, words, dealer, tag = "span") {
  const line = el(doc, tag, "next-line");
  line.append(el(doc, "span", "dealer-badge", words.deals), " ", el(doc, "b", "", dealer));
  return line;
}

// #next drawn from the phone's panel (panelOf) as templates/ledger/_next.html draws it; a
// page of several tables (.next-rows) says each matchup in the form's rows, not here. null:
// the server's panel back.
export function drawPanel(doc, panel, phone) {
  const next = doc.getElementById("next");
  if (!next) return;
  if (!panel) {
    if (drawn.has(next)) {
      const was = drawn.get(next);
      next.innerHTML = was.html;
      next.className = was.className;
      drawn.delete(next);
    }
    return;
  }
  if (!drawn.has(next)) drawn.set(next, { html: next.innerHTML, className: next.className });
  const words = phone.next;
  const keep = (selector) => next.querySelector(selector);
  const oldTitle = keep(".next-title");
  const openGames = keep(".open-games");
  const note = keep(".next-unknown-note");
  const parts = [];
  const title = el(doc, "p", "next-title", panel.title);
  if (oldTitle && oldTitle.dataset.label) title.dataset.label = oldTitle.dataset.label;
  parts.push(title);
  if (panel.rounds) {
    parts.push(el(doc, "p", "contract", panel.contract));
    parts.push(dealerLine(doc, words, panel.dealer, "p"));
  } else if (!next.classList.contains("next-rows")) {
    panel.tables.forEach((t) => {
      const matchup = el(doc, "div", "matchup");
      const vs = el(doc, "span", "vs");
      const side = (name, chip) => {
        vs.append(el(doc, "b", "", name));
        if (chip) vs.append(" ", el(doc, "span", chip.css, chip.word));
      };
      side(t.a, t.aChip);
      vs.append(" ", el(doc, "span", "v", words.versus), " ");
      side(t.b, t.bChip);
      matchup.append(vs);
      if (t.dealer) matchup.append(" ", dealerLine(doc, words, t.dealer));
      parts.push(matchup);
    });
  }
  if (panel.dealerSide) parts.push(el(doc, "p", "next-line", panel.dealerSide));
  // Hollywood's open games as the phone's result has them (null: the server's line kept)
  if (panel.openGames) {
    parts.push(el(doc, "p", "next-line open-games", panel.openGames));
  } else if (openGames && panel.openGames !== "") parts.push(openGames);
  if (note) parts.push(note);
  if (panel.sitsOut) {
    const sits = el(doc, "p", "next-line sits", words.sits_out + " ");
    sits.append(el(doc, "b", "", panel.sitsOut));
    parts.push(sits);
  }
  next.replaceChildren(...parts);
  next.classList.remove("next-unknown");
  next.classList.add("next-unsaved");
}
