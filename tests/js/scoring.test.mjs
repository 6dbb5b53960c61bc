// The phone's offline scoring, without a browser (static/ledger/queue/scoring.js): a hand
// typed in the form made into the record's hand, the tiles' numbers, a refusal's field.
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  entryOf, recordWith, tilesOf, numberText, fieldOf, panelOf, namesText, refusalText,
  refusalErrors, openGamesText, totalsOf,
} from "../../static/ledger/queue/scoring.js";

const DRAW = "-draw-";  // the form's (forms/queue.py hands it over as each table's draw)
// how the form makes a hand, as forms/queue.py hand_making hands it over
const MAKING = { plain: "knock", kinds: { gin: { flag: "gin", with_count: true },
  big_gin: { flag: "big_gin", with_count: false } }, upcard: null, knock_card_fields: null,
  cut: null, round: null, places: { knocker: { table: "knocker" }, deadwood: { seat: 0 }, cards: { seat: 1 } } };
const TABLE = { knocker: "t1_knocker", kind: "t1_kind", draw: DRAW, players: ["Ann", "Bob"],
  seats: [["t1_c0", "t1_cards0"], ["t1_c1", "t1_cards1"]], picked: ["t1_p0", "t1_p1"] };
const SCHEMA = { number: "number", key: "key", required: {}, tables: [TABLE], by_tables: false,
  rounds: false, ...MAKING };
const GIN = { variant: "gin", players: ["Ann", "Bob"], hands: [] };

test("a knock typed in the form is the record's hand, knocker first", () => {
  const fields = [["t1_knocker", "Ann"], ["t1_kind", "knock"], ["t1_c0", "2"], ["t1_c1", "20"],
    ["t1_cards0", ""], ["t1_cards1", ""]];
  assert.deepEqual(entryOf(fields, SCHEMA, GIN), { knocker: "Ann", deadwood: { Ann: 2, Bob: 20 } });
  const bob = [["t1_knocker", "Bob"], ["t1_kind", "gin"], ["t1_c0", "31"], ["t1_c1", ""]];
  assert.deepEqual(entryOf(bob, SCHEMA, GIN), { knocker: "Bob", deadwood: { Bob: 0, Ann: 31 } });
  assert.deepEqual(entryOf([["t1_knocker", DRAW]], SCHEMA, GIN), { draw: true });
});

test("what the phone cannot read is left to the server", () => {
  const cards = [["t1_knocker", "Ann"], ["t1_kind", "knock"], ["t1_cards0", "AS 2S"]];
  assert.equal(entryOf(cards, SCHEMA, GIN), null);
  assert.equal(entryOf([["t1_knocker", "Ann"], ["t1_c0", "x"], ["t1_c1", "3"]], SCHEMA, GIN), null);
  assert.equal(entryOf([], { tables: [] }, GIN), null);
});

test("several tables, who was picked, and the record with the hands kept", () => {
  const t2 = { ...TABLE, knocker: "t2_knocker", kind: "t2_kind", players: ["Cy", "Di"],
    seats: [["t2_c0", "t2_cards0"], ["t2_c1", "t2_cards1"]], picked: ["t2_p0", "t2_p1"] };
  const fields = [["t1_knocker", DRAW], ["t2_p0", "Di"], ["t2_p1", "Cy"], ["t2_knocker", "Cy"],
    ["t2_kind", "knock"], ["t2_c0", "7"], ["t2_c1", "3"]];
  const record = { variant: "captain", players: ["Ann", "Bob", "Cy", "Di", "Ed"], hands: [1] };
  const entry = entryOf(fields, { ...MAKING, tables: [TABLE, t2], by_tables: true }, record);
  assert.deepEqual(entry, { tables: [{ draw: true }, { knocker: "Cy", deadwood: { Cy: 3, Di: 7 } }] });
  assert.deepEqual(recordWith(record, [entry]).hands, [1, entry]);
  assert.deepEqual(record.hands, [1]);
});

test("the tiles' numbers as the server writes them, in English and German", () => {
  const result = { totals: { Ann: { final: 1018 }, Bob: { final: 0 } }, winner: null, facts: {} };
  const tiles = tilesOf(result);
  assert.deepEqual(tiles.map((t) => [t.key, t.value]), [["Ann", 1018], ["Bob", 0]]);
  assert.equal(numberText(1018, "en"), "1,018");
  assert.equal(numberText(1018, "de"), "1.018");
  assert.equal(numberText(18, "de"), "18");
  assert.equal(numberText(12, "en", true), "+12");
  assert.equal(numberText(-12, "en", true), "\u221212");
});

test("each tile's words made once, before the Save draws them: running totals, Hollywood", () => {
  const gin = { totals: { Ann: { final: 1018 }, Bob: { final: 0 } }, winner: "Ann", facts: {} };
  assert.deepEqual(totalsOf(gin, { lang: "de" }, null), {
    Ann: { text: "1.018", leader: true, detail: null },
    Bob: { text: "0", leader: false, detail: null },
  });
  // Hollywood: the net, signed, with each game's total under it in the page's words
  const hollywood = { totals: { Ann: { final: 0 }, Bob: { final: 0 } }, winner: null,
    facts: { columns: true }, net: { Ann: 12, Bob: -12 },
    columns: [{ totals: { Ann: { final: 40 }, Bob: { final: 28 } } },
      { totals: { Ann: { final: 1200 }, Bob: { final: 0 } } }] };
  const phone = { tiles: { games: "Games: {scores}" } };
  assert.deepEqual(totalsOf(hollywood, { lang: "en" }, phone), {
    Ann: { text: "+12", leader: false, detail: "Games: 40 \u00b7 1,200" },
    Bob: { text: "\u221212", leader: false, detail: "Games: 28 \u00b7 0" },
  });
  // no words handed over for the games: the tile keeps the server's line under it
  assert.equal(totalsOf(hollywood, { lang: "en" }, null).Ann.detail, null);
});

test("a refusal goes to its field", () => {
  assert.equal(fieldOf({ table: 1, player: "Bob", field: "deadwood" }, SCHEMA), "t1_c1");
  assert.equal(fieldOf({ table: null, player: "Ann", field: "deadwood" }, SCHEMA), "t1_c0");
  assert.equal(fieldOf({ field: "knocker" }, SCHEMA), "t1_knocker");
  assert.equal(fieldOf({ field: "target" }, SCHEMA), "__all__");
});

// a fake IndexedDB: one database of object stores, each a Map by its key path
function fakeIDB() {
  const stores = new Map();
  const request = (fn) => {
    const req = {};
    setTimeout(() => {
      try { req.result = fn(); req.onsuccess && req.onsuccess(); }
      catch (error) { req.error = error; req.onerror && req.onerror(); }
    });
    return req;
  };
  const db = {
    objectStoreNames: { contains: (name) => stores.has(name) },
    createObjectStore: (name, { keyPath }) => stores.set(name, { keyPath, rows: new Map() }),
    transaction: (name) => ({ objectStore: () => {
      const store = stores.get(name);
      return { put: (row) => request(() => store.rows.set(row[store.keyPath], row)),
        get: (key) => request(() => store.rows.get(key)) };
    } }),
  };
  return { stores, open: () => {
    const req = {};
    setTimeout(() => {  // a new database is upgraded (its stores made) before it opens
      req.result = db;
      if (!stores.size && req.onupgradeneeded) req.onupgradeneeded();
      if (req.onsuccess) req.onsuccess();
    });
    return req;
  } };
}

test("the game's record is kept beside the queue in IndexedDB, by game", async () => {
  const { keepRecord, keptRecord, dropOldCopy } = await import("../../static/ledger/queue/records.js");
  const idb = fakeIDB();
  assert.equal(await keptRecord(7, idb), null);
  assert.equal(await keepRecord(7, JSON.stringify(GIN), idb), true);
  assert.deepEqual(await keptRecord(7, idb), GIN);
  assert.equal(await keptRecord(8, idb), null);
  assert.ok(idb.stores.get("records").rows.has("7"));
  assert.equal(await keepRecord(7, "", idb), false);
  assert.equal(await keepRecord(9, "{}", null), false);  // no IndexedDB: nothing kept, nothing thrown
  assert.equal(await keptRecord(9, null), null);
  const old = new Map([["tablestakes.record.v1.7", "{}"]]);
  dropOldCopy({ removeItem: (k) => old.delete(k) }, 7);
  assert.equal(old.size, 0);
});

test("a CAP-IT round typed in the form is the record's round", () => {
  const ROUND = { ...MAKING, tables: [], rounds: true,  // the CAP-IT form's (forms/queue.py)
    round: { went_out: "went_out", nobody: "-nobody-", points: ["pts_0", "pts_1", "pts_2", "pts_3"] } };
  const capit = { variant: "cap-it", players: ["Sal", "Vic", "Ann", "Bo"], hands: [] };
  const fields = [["went_out", "Vic"], ["pts_0", "12"], ["pts_1", ""], ["pts_2", "7"], ["pts_3", "30"]];
  assert.deepEqual(entryOf(fields, ROUND, capit),
    { went_out: "Vic", points: { Sal: 12, Ann: 7, Bo: 30 } });
  const nobody = [["went_out", "-nobody-"], ["pts_0", "5"], ["pts_1", "0"], ["pts_2", "1"], ["pts_3", "2"]];
  assert.deepEqual(entryOf(nobody, ROUND, capit),
    { went_out: null, points: { Sal: 5, Vic: 0, Ann: 1, Bo: 2 } });
  nobody[1] = ["pts_1", ""];  // the form asks for Vic's points: the server says so
  assert.equal(entryOf(nobody, ROUND, capit), null);
  assert.equal(entryOf([["went_out", "Vic"], ["pts_0", "x"]], ROUND, capit), null);
});

// the next hand's panel from the core's result (presentation/game_page.py next_panel), in
// the page's words (#phone-words "next")
const NEXT = { hand: "Hand {number}", round: "Round {number} of 5", deals: "deals", versus: "v",
  sits_out: "Sits out:", dealer_side: "{side} deal at every table.", and: "{names} and {last}",
  chips: { box: { word: "in the box", css: "chip chip-box" }, captain: { word: "captain", css: "chip" } },
  playing: ["box", "captain", "opponent", "player"], contracts: { "two sets of 3": "two sets of 3" } };

test("the box: who plays whom, box first, who deals and who sits out", () => {
  const result = { players: ["Sal", "Vic", "Ann"], hands: [{}], facts: { hand_roles: ["box"] },
    next: { dealer: "Sal", roles: { Ann: "sits_out", Vic: "captain", Sal: "box" } } };
  const panel = panelOf(result, NEXT);
  assert.equal(panel.title, "Hand 2");
  assert.deepEqual(panel.pairs, [["Sal", "Vic"]]);
  assert.deepEqual(panel.tables[0], { a: "Sal", b: "Vic", aChip: NEXT.chips.box,
    bChip: NEXT.chips.captain, dealer: "Sal" });
  assert.equal(panel.sitsOut, "Ann");
});

test("several tables: each table's pair and dealer, the dealer side; CAP-IT's round", () => {
  const result = { players: ["Sal", "Vic", "Ann", "Bo"], hands: [], facts: { tables: 2 },
    next: { dealer: ["Ann", "Bo"], roles: { Sal: "player", Vic: "player", Ann: "player", Bo: "player" },
      tables: [["Sal", "Ann"], ["Vic", "Bo"]], dealer_side: "They" } };
  const panel = panelOf(result, NEXT);
  assert.deepEqual(panel.pairs, [["Sal", "Ann"], ["Vic", "Bo"]]);
  assert.deepEqual(panel.tables.map((t) => t.dealer), ["Ann", "Bo"]);
  assert.equal(panel.dealerSide, "They deal at every table.");
  assert.equal(panel.sitsOut, "");
  const capit = panelOf({ players: ["A", "B"], hands: [{}], facts: { rounds: true },
    next: { dealer: "B", round: 2, contract: "two sets of 3", roles: {} } }, NEXT);
  assert.equal(capit.title, "Round 2 of 5");
  assert.equal(capit.contract, "two sets of 3");
  assert.equal(namesText(["A", "B", "C"], NEXT.and), "A, B and C");
});

// a refusal at its field, as the server's form words it (forms/hands.py _place,
// presentation/problems.py field_words)
const REFUSALS = { core: false, holds: { deadwood: "count", cards: "cards", points: "points" },
  sentences: { knock_over_limit: "Zu viele Punkte zum Klopfen." },
  numbered: { knock_over_limit: "Zu viele Punkte: {count} liegt über {limit}." },
  labels: { count: "Punkte von {name}" }, named: "{where}: {problem}", hand: "Spiel {number}",
  round: "{hand} (Runde {number})", table: "{hand}, Tisch {number}", suits: { H: "♥" } };
const OVER = { code: "knock_over_limit", hand: 1, table: 1, player: "Ann", field: "deadwood",
  round: null, text: "12 is above 10", hint: null, line: "hand 1: deadwood.Ann: 12 is above 10",
  values: { count: 12, limit: 10 } };

test("a refusal in the page's language, with the core's numbers, at the player's count", () => {
  assert.equal(refusalText(OVER, "t1_c0", REFUSALS), "Punkte von Ann: Zu viele Punkte: 12 liegt über 10.");
  assert.equal(refusalText({ ...OVER, values: {} }, "t1_c0", REFUSALS),
    "Punkte von Ann: Zu viele Punkte zum Klopfen.");
  assert.equal(refusalText({ ...OVER, table: 2 }, null, REFUSALS),
    "Spiel 1, Tisch 2: Ann: Zu viele Punkte: 12 liegt über 10.");
  const errors = refusalErrors([OVER], SCHEMA, ["Ann", "Bob"], REFUSALS);
  assert.deepEqual(Object.keys(errors), ["t1_c0"]);
  const english = { ...REFUSALS, core: true, labels: { count: "{name}'s count" } };
  assert.equal(refusalText(OVER, "t1_c0", english), "Ann's count: 12 is above 10");
  assert.equal(refusalText({ ...OVER, field: "upcard", player: null, text: "the up-card 7H is wrong" },
    "up_rank", english), "the up-card 7♥ is wrong");
  assert.equal(refusalErrors([OVER], SCHEMA, [], null), null);
});

// Hollywood's open games under the panel (presentation/flash.py open_games_text), in each
// plural form the page hands over (presentation/phone.py open_games_words)
const OPEN = {
  en: { and: "{names} and {last}", open_games: {
    still: { one: "Still open: game {games}", other: "Still open: games {games}" },
    over: { one: "(game {games} over)", other: "(games {games} over)" } } },
  de: { and: "{names} und {last}", open_games: {
    still: { one: "Noch offen: Partie {games}", other: "Noch offen: Partien {games}" },
    over: { one: "(Partie {games} vorbei)", other: "(Partien {games} vorbei)" } } },
};
const columns = (...over) => [1, 2, 3].map((number) => ({ number, complete: over.includes(number) }));

test("Hollywood's open games as the server says them, in English and German", () => {
  assert.equal(openGamesText({ columns: columns() }, { ...NEXT, ...OPEN.en }, "en"),
    "Still open: games 1, 2 and 3.");
  assert.equal(openGamesText({ columns: columns(1) }, { ...NEXT, ...OPEN.en }, "en"),
    "Still open: games 2 and 3 (game 1 over).");
  assert.equal(openGamesText({ columns: columns(1, 2) }, { ...NEXT, ...OPEN.de }, "de"),
    "Noch offen: Partie 3 (Partien 1 und 2 vorbei).");
  assert.equal(openGamesText({ columns: columns(1, 2, 3) }, OPEN.en, "en"), "");
  const result = { players: ["A", "B"], hands: [{}], facts: { columns: true },
    columns: columns(2), next: { dealer: "B", roles: {} } };
  assert.equal(panelOf(result, { ...NEXT, ...OPEN.de }, "de").openGames,
    "Noch offen: Partien 1 und 3 (Partie 2 vorbei).");
  assert.equal(panelOf({ ...result, facts: {} }, { ...NEXT, ...OPEN.en }, "en").openGames, null);
});
