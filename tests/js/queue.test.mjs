// The queue's sender, store and lock, without a browser: node --test tests/js/
// (run by tests/test_js_units.py).
import { test } from "node:test";
import assert from "node:assert/strict";

import { createSender, createPost } from "../../static/ledger/queue/sender.js";
import {
  createStore, enqueue, discardHead, renumber, numberAfter, revive, STOPPED,
} from "../../static/ledger/queue/store.js";
import { createLock, BUSY } from "../../static/ledger/queue/lock.js";
import { describeQueue, listed } from "../../static/ledger/queue/view.js";
import { pickedOf, missingChoices, relabel } from "../../static/ledger/queue/form.js";
import { counted, fill } from "../../static/ledger/queue/words.js";
import { scoreApart } from "../../static/ledger/queue/page.js";

const WORDS = {
  retry: "Not sent yet: {reason} Trying again by itself.",
  states: { pending: "not sent yet", refused: "refused: fix it above", waiting: "waiting",
    stale: "kept: not sent" },
  advice: { refused: "Fix it.", stale: "Check it." },
  stopped: "Sending stopped at hand {number}. {advice}",
  after: " The hands after it wait.", sending: "Sending…", kept: "Kept.",
  count_one: "1 hand", count_many: "{count} hands", hand: "Hand {number}",
  send_as: "Send it as hand {number}", score_one: "Without the hand.",
  score_many: "Without the {count} hands.",
};

function memoryStorage() {
  const data = new Map();
  return {
    data,
    getItem: (k) => (data.has(k) ? data.get(k) : null),
    setItem: (k, v) => { data.set(k, String(v)); },
    removeItem: (k) => { data.delete(k); },
  };
}

function hand(number, extra = {}) {
  return { key: "k" + number, number, state: "pending",
    fields: [["key", "k" + number], ["number", String(number)]], summary: "h" + number, ...extra };
}

// a fake clock: setTimeout records the waits; fire() runs the next one
function fakeTimers() {
  const waits = [];
  return {
    waits,
    pending: [],
    setTimeout(fn, ms) { waits.push(ms); this.pending.push(fn); return this.pending.length; },
    clearTimeout() { this.pending = []; },
    fire() { const fn = this.pending.shift(); fn(); },
  };
}

function setup(answers, { online = true, queue = [1, 2, 3].map((n) => hand(n)) } = {}) {
  const storage = memoryStorage();
  const store = createStore(storage, "q");
  store.save(queue);
  const posted = [];
  const timers = fakeTimers();
  const settled = [];
  const sender = createSender({
    store, words: WORDS, timers, isOnline: () => online,
    partsFor: (q) => (q.length === 1 ? 9 : 0),
    post: async (item, parts) => {
      posted.push([item.number, parts, item.state]);
      const answer = answers.shift();
      return typeof answer === "function" ? answer(item) : answer;
    },
    onSettled: (outcome) => settled.push(outcome.state),
  });
  return { storage, store, sender, posted, timers, settled };
}

test("three hands are sent one at a time, in order; the last asks for the page's parts", async () => {
  const { store, sender, posted, settled } = setup([
    { status: "recorded" }, { status: "recorded" }, { status: "recorded", parts: "<p>", next: 4 }]);
  const outcome = await sender.run();
  assert.deepEqual(posted, [[1, 0, "sending"], [2, 0, "sending"], [3, 9, "sending"]]);
  assert.equal(outcome.state, "idle");
  assert.equal(outcome.landed, 3);
  assert.deepEqual(outcome.update, { status: "recorded", parts: "<p>", next: 4 });
  assert.deepEqual(store.load(), []);
  assert.deepEqual(settled, ["idle"]);
  assert.equal(sender.state, "idle");
});

test("a refused hand stops the queue there, with its reasons; the hands after it wait", async () => {
  const refusal = { status: "refused", message: "Too many.", errors: { t1_c0: ["Too many."] },
    problems: ["Too many."], fields: [["t1_c0", "15"]] };
  const { store, sender, posted } = setup([{ status: "recorded" }, refusal]);
  const outcome = await sender.run();
  assert.equal(outcome.state, "stopped");
  assert.equal(outcome.landed, 1);
  assert.deepEqual(posted.map((p) => p[0]), [2 - 1, 2]);
  const [head, after] = store.load();
  assert.equal(head.number, 2);
  assert.equal(head.state, "refused");
  assert.deepEqual(head.errors, { t1_c0: ["Too many."] });
  assert.deepEqual(head.seated, [["t1_c0", "15"]]);
  assert.equal(after.state, "pending");
  // a stopped queue is not sent again by itself
  const again = await sender.run();
  assert.equal(again.state, "stopped");
  assert.equal(posted.length, 2);
});

test("an answer the server did not give keeps the hand and retries, waiting 1, 2, 4 s", async () => {
  const { store, sender, posted, timers } = setup([
    { status: "retry", message: "No connection.", offline: true },
    { status: "retry", message: "The server had a problem (502)." },
    { status: "retry", message: "No answer in time." },
    { status: "recorded" }, { status: "recorded" }, { status: "recorded" }]);
  const first = await sender.run();
  assert.equal(first.state, "waiting");
  assert.equal(first.offline, true);
  assert.equal(store.load()[0].state, "pending");
  assert.equal(store.load()[0].message, "Not sent yet: No connection. Trying again by itself.");
  assert.deepEqual(timers.waits, [1000]);
  assert.equal(sender.waiting, true);
  timers.fire();
  await sender.run();  // the run the timer started
  assert.deepEqual(timers.waits, [1000, 2000]);
  assert.match(store.load()[0].message, /\(502\)/);
  timers.fire();
  await sender.run();
  assert.deepEqual(timers.waits, [1000, 2000, 4000]);
  // the connection is back: now, not after the wait, and the waits start again from 1 s
  const outcome = await sender.now();
  assert.equal(outcome.state, "idle");
  assert.equal(outcome.landed, 3);
  assert.deepEqual(posted.map((p) => p[0]), [1, 1, 1, 1, 2, 3]);
  assert.equal(sender.retries, 0);
});

test("the waits stop growing at 60 s", async () => {
  const answers = Array.from({ length: 9 }, () => ({ status: "retry", message: "x" }));
  const { sender, timers, posted } = setup(answers);
  await sender.run();
  await sender.run();  // asked for again while the wait is set: no second wait
  for (let i = 0; i < 7; i += 1) {
    timers.fire();
    await sender.run();
  }
  assert.deepEqual(timers.waits, [1, 2, 4, 8, 16, 32, 60, 60].map((s) => s * 1000));
  assert.equal(posted.length, 9);
});

test("offline, nothing is sent and the run says so", async () => {
  const { sender, posted, store } = setup([], { online: false });
  const outcome = await sender.run();
  assert.equal(outcome.state, "offline");
  assert.deepEqual(posted, []);
  assert.equal(store.load().length, 3);
});

test("a run asked for while one is going is the same run (no hand sent twice)", async () => {
  let release;
  const gate = new Promise((resolve) => { release = resolve; });
  const { sender, posted } = setup([
    () => gate.then(() => ({ status: "recorded" })), { status: "recorded" },
    { status: "recorded" }]);
  const a = sender.run();
  const b = sender.run();
  assert.equal(a, b);
  assert.equal(sender.state, "sending");
  release();
  const outcome = await a;
  assert.equal(outcome.landed, 3);
  assert.deepEqual(posted.map((p) => p[0]), [1, 2, 3]);
});

test("a Save's hand alone in the list leaves before the lock is asked, and is posted once", async () => {
  const storage = memoryStorage();
  const store = createStore(storage, "q");
  store.save([hand(1)]);
  const order = [];
  let grant;
  const granted = new Promise((resolve) => { grant = resolve; });
  // the browser answers the lock a while later (a round trip to it)
  const lock = async (fn) => { order.push("lock asked"); await granted; order.push("lock held"); return fn(() => {}); };
  const sender = createSender({
    store, words: WORDS, timers: fakeTimers(), lock, partsFor: () => 9,
    post: async (item, parts) => { order.push(`posted ${item.number} parts=${parts}`); return { status: "recorded", parts: "<p>" }; },
  });
  const run = sender.now(true);
  assert.deepEqual(order, ["posted 1 parts=9", "lock asked"]);
  grant();
  const outcome = await run;
  assert.equal(outcome.landed, 1);
  assert.equal(outcome.update.parts, "<p>");
  assert.deepEqual(order, ["posted 1 parts=9", "lock asked", "lock held"]);  // not posted twice
  assert.deepEqual(store.load(), []);
});

test("hands kept before it: a Save's run sends them in order under the lock, none ahead", async () => {
  const { sender, posted } = setup([{ status: "recorded" }, { status: "recorded" },
    { status: "recorded" }]);
  let asked = 0;
  const outcome = await sender.now(true);
  asked = posted.length;
  assert.equal(outcome.landed, 3);
  assert.deepEqual(posted.map((p) => p[0]), [1, 2, 3]);
  assert.equal(asked, 3);
});

test("another tab holding the lock: a Save's lone hand was posted, the other tab sends the list", async () => {
  const storage = memoryStorage();
  const store = createStore(storage, "q");
  store.save([hand(1)]);
  const posted = [];
  const sender = createSender({
    store, words: WORDS, timers: fakeTimers(), lock: async () => BUSY,
    post: async (item) => { posted.push(item.number); return { status: "recorded" }; },
  });
  const outcome = await sender.now(true);
  assert.equal(outcome.state, "busy");
  assert.deepEqual(posted, [1]);
  assert.equal(store.load().length, 1);  // the other tab takes it off when its answer comes
});

test("the CSRF token kept is used; refused, the hand goes once more with a fresh one", async () => {
  let cookie = "old";
  const asked = [];
  const csrf = (fresh) => { asked.push(fresh); return fresh ? cookie : "old"; };
  const sent = [];
  const fetch = async (url, init) => {
    sent.push(init.headers["X-CSRFToken"]);
    const ok = init.headers["X-CSRFToken"] === cookie;
    return { status: ok ? 201 : 403, type: "basic", json: async () => ({ status: "recorded" }) };
  };
  const post = createPost({ url: "/send/", csrf, words: { login: "Log in again." }, fetch });
  assert.deepEqual(await post(hand(1), 0), { status: "recorded" });
  assert.deepEqual(sent, ["old"]);
  assert.deepEqual(asked, [false]);  // the kept one: the cookie is not read in a Save
  cookie = "new";  // a log-in since, in another tab
  assert.deepEqual(await post(hand(2), 0), { status: "recorded" });
  assert.deepEqual(sent, ["old", "old", "new"]);
  // refused with the fresh token too (no longer a keeper): said once, not sent again
  const refused = createPost({ url: "/send/", csrf: () => "x", words: { login: "Log in again." },
    fetch: async (url, init) => { sent.push(init.headers["X-CSRFToken"]); return { status: 403, type: "basic" }; } });
  assert.deepEqual(await refused(hand(3), 0), { status: "login", message: "Log in again." });
  assert.equal(sent.length, 4);
});

test("the hand's request leaves before the list is written; the list says sending after", async () => {
  const storage = memoryStorage();
  const store = createStore(storage, "q");
  store.save([hand(1)]);
  let answer;
  const seen = [];
  const sender = createSender({
    store, words: WORDS, timers: fakeTimers(),
    post: (item) => {
      seen.push(["at the request", item.state, store.load()[0].state]);
      return new Promise((resolve) => { answer = resolve; });
    },
  });
  const run = sender.run();
  await new Promise((resolve) => setTimeout(resolve, 0));
  seen.push(["while it waits", store.load()[0].state]);
  answer({ status: "recorded" });
  await run;
  assert.deepEqual(seen, [["at the request", "sending", "pending"], ["while it waits", "sending"]]);
  assert.deepEqual(store.load(), []);
});

test("a hand discarded while it was being sent is not taken off again: the next one goes", async () => {
  const storage = memoryStorage();
  const store = createStore(storage, "q");
  store.save([hand(1), hand(2)]);
  const posted = [];
  const sender = createSender({
    store, words: WORDS, timers: fakeTimers(),
    post: async (item) => {
      posted.push(item.number);
      if (item.key === "k1") store.save(discardHead(store.load(), "number"));
      return { status: "recorded" };
    },
  });
  const outcome = await sender.run();
  // hand 1 was thrown away (hand 2 became hand 1 and was sent as such)
  assert.deepEqual(posted, [1, 1]);
  assert.equal(outcome.landed, 1);
  assert.deepEqual(store.load(), []);
});

test("stale and over stop the queue with the server's next number", async () => {
  const { store, sender } = setup([{ status: "stale", next: 4, message: "taken" }]);
  const outcome = await sender.run();
  assert.equal(outcome.head.state, "stale");
  assert.equal(outcome.head.next, 4);
  assert.equal(outcome.answered, true);
  // found stopped by a later run (the page drawn again): not answered now
  const later = await sender.run();
  assert.equal(later.state, "stopped");
  assert.equal(later.answered, undefined);
  assert.equal(numberAfter(store.load(), 1), 4 + 3);
});

test("another tab holding the lock: this one sends nothing", async () => {
  const storage = memoryStorage();
  const store = createStore(storage, "q");
  store.save([hand(1)]);
  let now = 1000;
  const other = createLock("g", { storage, id: "other", now: () => now });
  const mine = createLock("g", { storage, id: "mine", now: () => now });
  const posted = [];
  const sender = createSender({
    store, words: WORDS, timers: fakeTimers(), lock: mine,
    post: async (item) => { posted.push(item.number); return { status: "recorded" }; },
  });
  let release;
  const held = other(() => new Promise((resolve) => { release = resolve; }));
  const outcome = await sender.run();
  assert.equal(outcome.state, "busy");
  assert.deepEqual(posted, []);
  release();
  await held;
  const after = await sender.run();  // the lock given back: this tab sends
  assert.equal(after.landed, 1);
  assert.deepEqual(posted, [1]);
});

test("the storage lease of a tab that died runs out", async () => {
  const storage = memoryStorage();
  let now = 0;
  const dead = createLock("g", { storage, id: "dead", now: () => now, lease: 1000 });
  const live = createLock("g", { storage, id: "live", now: () => now, lease: 1000 });
  // the dead tab took the lease and never gave it back
  storage.setItem("tablestakes.lock.g", JSON.stringify({ id: "dead", until: 1000 }));
  assert.equal(await live(() => "sent"), BUSY);
  now = 1001;
  assert.equal(await live(() => "sent"), "sent");
  assert.equal(storage.getItem("tablestakes.lock.g"), null);  // given back
  assert.equal(await dead(() => "sent too"), "sent too");
});

test("navigator.locks is asked for the lock, if available only", async () => {
  const asked = [];
  const locks = { request: (name, options, fn) => { asked.push([name, options]); return fn(null); } };
  const withLock = createLock("tablestakes.queue.7", { locks });
  assert.equal(await withLock(() => "sent"), BUSY);
  assert.deepEqual(asked, [["tablestakes.queue.7", { ifAvailable: true }]]);
});

test("the store keeps the queue in storage, and in memory when storage refuses", () => {
  const storage = memoryStorage();
  const store = createStore(storage, "tablestakes.queue.v1.5");
  store.save([hand(1)]);
  assert.equal(JSON.parse(storage.getItem("tablestakes.queue.v1.5"))[0].number, 1);
  store.save([]);
  assert.equal(storage.getItem("tablestakes.queue.v1.5"), null);
  const full = { ...storage, setItem() { throw new Error("QuotaExceededError"); } };
  const kept = createStore(full, "q");
  kept.save([hand(2)]);
  assert.equal(kept.load()[0].number, 2);
});

test("queue operations: fixed hand first again, discard and renumber move the numbers", () => {
  const queue = [hand(2, { state: "refused" }), hand(3)];
  enqueue(queue, hand(2, { key: "fixed" }), "k2", "number");
  assert.deepEqual(queue.map((h) => [h.key, h.state]), [["fixed", "pending"], ["k3", "pending"]]);
  enqueue(queue, hand(4), null, "number");
  assert.deepEqual(queue.map((h) => h.number), [2, 3, 4]);
  discardHead(queue, "number");
  assert.deepEqual(queue.map((h) => h.number), [2, 3]);
  assert.deepEqual(queue.map((h) => h.fields[1]), [["number", "2"], ["number", "3"]]);
  queue[0].state = "stale";
  queue[0].next = 5;
  renumber(queue, "number");
  assert.deepEqual(queue.map((h) => [h.number, h.state]), [[5, "pending"], [6, "pending"]]);
  assert.deepEqual(revive([hand(1, { state: "sending" })]).map((h) => h.state), ["pending"]);
  assert.equal(numberAfter([], 7), 7);
  assert.ok(STOPPED.has("login") && !STOPPED.has("pending"));
});

test("the list says what the page's words say", () => {
  const said = describeQueue([hand(2, { state: "refused", message: "Too many." }), hand(3)],
    WORDS, true);
  assert.equal(said.count, "2 hands");
  assert.equal(said.score, "Without the 2 hands.");
  assert.equal(said.note, "Sending stopped at hand 2. Fix it. The hands after it wait.");
  assert.deepEqual(said.items.map((i) => [i.title, i.state, i.status, i.why, i.actions]), [
    ["Hand 2", "refused", "refused: fix it above", "Too many.", ["discard"]],
    ["Hand 3", "waiting", "waiting", "", []]]);
  const stale = describeQueue([hand(1, { state: "stale", next: 2 })], WORDS, true);
  assert.deepEqual(stale.items[0].actions, ["renumber", "discard"]);
  assert.equal(stale.items[0].renumber, "Send it as hand 2");
  assert.equal(stale.count, "1 hand");
  const offline = describeQueue([hand(1)], WORDS, false);
  assert.equal(offline.note, "Kept.");
  assert.deepEqual(offline.items[0].actions, []);
  assert.deepEqual(describeQueue([hand(1)], WORDS, true).items[0].actions, ["send"]);
});

test("the form's names come from its schema: who was picked, the choices not made", () => {
  const schema = {
    required: { t1_knocker: "Who knocked? Tap a name, or Draw." },
    tables: [{ knocker: "t1_knocker", picked: ["t1_p0", "t1_p1"] },
      { knocker: "t2_knocker", picked: ["t2_p0", "t2_p1"] }],
  };
  assert.equal(pickedOf([["t1_c0", "3"]], schema), null);
  assert.deepEqual(pickedOf([["t2_p0", "R"], ["t2_p1", "P"]], schema),
    [[undefined, undefined], ["R", "P"]]);
  assert.deepEqual(missingChoices(() => false, schema, () => true),
    { t1_knocker: ["Who knocked? Tap a name, or Draw."] });
  assert.equal(missingChoices(() => true, schema, () => true), null);
  assert.equal(missingChoices(() => false, schema, () => false), null);
  assert.equal(fill("Hand {number} of {x}", { number: 3 }), "Hand 3 of {x}");
});

// The counts in the page's language (words.js `counted`): the server hands one sentence per
// plural category (ledger/presentation/queue.py queue_plurals), Intl.PluralRules picks.
const RU = {
  lang: "ru",
  plurals: { count: { one: "{count} раздача", few: "{count} раздачи", many: "{count} раздач",
                      other: "{count} раздачи" } },
};

test("Russian counts take their three forms", () => {
  assert.equal(counted(RU, "count", 1, "1 hand", "{count} hands"), "1 hand");  // no "=1"
  assert.equal(counted(RU, "count", 3, "1 hand", "{count} hands"), "3 раздачи");
  assert.equal(counted(RU, "count", 5, "1 hand", "{count} hands"), "5 раздач");
  assert.equal(counted(RU, "count", 21, "1 hand", "{count} hands"), "21 раздача");
});

test("without the forms the page's one and many are used", () => {
  assert.equal(counted({}, "count", 1, "1 hand", "{count} hands"), "1 hand");
  assert.equal(counted({}, "count", 4, "1 hand", "{count} hands"), "4 hands");
});

test("one itself takes the language's words for exactly one", () => {
  const words = { lang: "ru", plurals: { count: { ...RU.plurals.count, "=1": "одна раздача" } } };
  assert.equal(counted(words, "count", 1, "1 hand", "{count} hands"), "одна раздача");
  assert.equal(counted(words, "count", 21, "1 hand", "{count} hands"), "21 раздача");
});

test("the Save button and the title say the hand's number where the language puts it", () => {
  // three hands kept offline on a page drawn for hand 4: the form is for hand 7
  assert.equal(relabel("Spiel 4 speichern", "Spiel {number} speichern", 7), "Spiel 7 speichern");
  assert.equal(relabel("Save hand 4", "Save hand {number}", 7), "Save hand 7");
  assert.equal(relabel("Сохранить раздачу 4", "Сохранить раздачу {number}", 12),
    "Сохранить раздачу 12");
  assert.equal(relabel("Runde 2 von 5", "Runde {number} von 5", 3), "Runde 3 von 5");
  // a page without the words: the first number
  assert.equal(relabel("Spiel 4 speichern", undefined, 7), "Spiel 7 speichern");
});

test("a lone refused hand back in the form is not listed; with hands after it, it is", () => {
  const refused = hand(4, { state: "refused", message: "Too many." });
  assert.deepEqual(listed([refused], "k4"), []);
  // not the hand in the form (the form went on to another), or not refused: listed
  assert.deepEqual(listed([refused], null), [refused]);
  assert.deepEqual(listed([refused], "k9"), [refused]);
  const stale = hand(4, { state: "stale", next: 5 });
  assert.deepEqual(listed([stale], "k4"), [stale]);
  // hands wait after it: the list says why
  assert.equal(listed([refused, hand(5)], "k4").length, 2);
  assert.deepEqual(listed([], "k4"), []);
});

test("a Save's answer: its score and the strip of totals apart from the rest", () => {
  const strip = '<div class="score-strip" aria-hidden="true"><span>Ann 51</span><div class="x"></div></div>';
  const score = '<div id="score" hx-swap-oob="true"><div class="scoreboard">' +
    '<div class="score-tile" data-key="Ann"><span>&lt;div Ann</span><b>51</b></div></div>\n</div>';
  const parts = `<section class="card entry" id="entry">\n  ${strip}\n<form></form></section>\n` +
    `<div id="flash" hx-swap-oob="delete"></div>\n${score}\n<div id="totals" hx-swap-oob="true"></div>`;
  const apart = scoreApart(parts);
  assert.equal(apart.score, score);
  assert.equal(apart.strip, strip);
  assert.equal(apart.rest, parts.replace(score, ""));
  assert.equal(scoreApart("<div id=\"totals\"></div>"), null);  // no score: all at once
  assert.equal(scoreApart('<div id="score" hx-swap-oob="true"><div>'), null);  // cut off
});
