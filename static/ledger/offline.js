// The game page's hand form never loses a hand (templates/ledger/_offline_queue.html): the
// wiring of the queue's modules (static/ledger/queue/), loaded as a module.
//
// Saving a hand puts it last in this phone's queue (queue/store.js: localStorage, with its
// idempotency key and the number it was typed as), then the queue is sent, one hand at a
// time and in order, to /games/N/hands/send/ (ledger/views/queue.py) by queue/sender.js,
// by one tab at a time (queue/lock.js). A hand leaves the queue only when the server says
// it is recorded: with no connection, a time-out or a server error it stays, shown as "not
// sent yet" (queue/view.js), and is sent again when the connection returns (the online
// event, and retries that wait longer each time). The server stores a resent hand once (it
// knows the key). If the server refuses a hand, the queue stops there: the hand comes back
// into the form (queue/form.js) as the server read it, with the reason at its field, and
// the hands after it wait.
//
// When the queue is empty again, the page is brought up to date in place, with no reload:
// the last hand sent asks for the parts of the page that changed (parts=N, N being the
// first hand the page does not show) and they come back with its answer, in the same round
// trip; htmx puts them in place (htmx.swap, queue/page.js), or, when the hand ended the
// game, the game page as a reload would draw it.
//
// Without a connection the form goes on to the next hand. Where who plays next depends on
// the hands not sent yet (data-roles-vary), the form asks who played each table, and the
// server checks it when the hand is sent. Every word, field name and sentinel is the
// page's (#offline-queue-words, #hand-form-fields).
import { readJSON, readText, fill } from "./queue/words.js";
import {
  createStore, storeKey, STOPPED, setField, numberAfter, enqueue, discardHead, renumber, revive,
} from "./queue/store.js";
import { keepRecord, keptRecord, dropOldCopy } from "./queue/records.js";
import { createLock } from "./queue/lock.js";
import { createSender, createPost } from "./queue/sender.js";
import { createView } from "./queue/view.js";
import { createFormBridge, pickedOf } from "./queue/form.js";
import { keepPage, swapIn } from "./queue/page.js";
import {
  entryOf, recordWith, fieldOf, showResult, showTotals, showRest, panelOf, refusalErrors,
  differences, keepServerTotals, totalsOf,
} from "./queue/scoring.js";

const root = document.getElementById("offline-queue");
if (root) start(root);

function uuid() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 15) | 64;
  b[8] = (b[8] & 63) | 128;
  const h = [...b].map((x) => (x + 256).toString(16).slice(1)).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

// the CSRF token, kept once read (reading the cookie is a round trip to the browser: read
// when the page is idle, not in a Save); fresh: read again (the server refused the kept one)
let csrfKept = "";
function csrfToken(fresh = false) {
  if (csrfKept && !fresh) return csrfKept;
  const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  const input = !m && document.querySelector("input[name=csrfmiddlewaretoken]");
  csrfKept = m ? decodeURIComponent(m[1]) : input ? input.value : "";
  return csrfKept;
}

// in the frame after the one that draws what changed so far (the next animation frame's, so
// that its work is drawn in that frame and never holds back the one before); at once when
// the page is not shown (no frames come), and at most 100 ms
function afterPaint() {
  if (document.hidden) return Promise.resolve();
  return new Promise((done) => {
    const timer = setTimeout(done, 100);
    requestAnimationFrame(() => requestAnimationFrame(() => { clearTimeout(timer); done(); }));
  });
}

function connection(online) {
  document.dispatchEvent(new CustomEvent("tablestakes:connection", { detail: { online } }));
}

function start(root) {
  // the words, and those of a count in each plural form of the page's language
  const words = { ...readJSON(document, "offline-queue-words", {}),
    ...readJSON(document, "offline-queue-plurals", {}) };
  const GAME_URL = root.dataset.gameUrl;
  const ROLES_VARY = root.dataset.rolesVary === "1";
  let serverNext = parseInt(root.dataset.next || "0", 10);  // the first hand not on the page
  const store = createStore(window.localStorage, storeKey(root.dataset.game));
  const hand = createFormBridge(document);
  const view = createView(document, root, words);
  let editing = null;  // key of the stopped hand now in the form
  let landed = 0;  // hands recorded since the page was drawn
  let update = null;  // the last answer that carries the page's changed parts
  let saying = null;  // "Saving…" on the Save button, once its hand's request has left
  let saving = false;  // a hand being put in the queue and sent from the form: one at a time

  const render = () => { view.render(store.load(), navigator.onLine, editing); phoneShow(); };

  // -- the phone's own scoring (queue/scoring.js), with no connection ------------------------
  // The form's record (#game-record, as the server last drew it) with the hands kept, scored
  // by the phone's core once it is ready; the page's tiles show it, "not yet saved", until
  // the server's parts replace them. Without the core, or a hand the phone cannot read, the
  // page works as without it.
  const pageWords = readJSON(document, "script-words", {});
  const phoneWords = readJSON(document, "phone-words", null);  // presentation/phone.py
  let phone = null;  // {result, keys}: the phone's last result and the hands it counts
  let client = null;  // the core's module (core/client.mjs) once it said it is ready
  async function core() {
    const tag = document.getElementById("core-worker");
    if (client || !tag || !pageWords.offline) return client;
    try {
      const loaded = await import(tag.src);
      if (loaded.state() === "ready") client = loaded;
      return client;
    } catch { return null; }
  }
  const GAME = root.dataset.game;
  function keepTheRecord() {
    const el = document.getElementById("game-record");
    if (el) keepRecord(GAME, el.textContent);
  }
  // the page's record with these hands added (null: not known); the page's record read
  // while the page was idle (readAhead) and the core ready, a Save's record goes to the
  // worker in the tap's own task, with no turn of the event loop before
  function recordOf(items, record) {
    if (!record || (record.hands || []).length + 1 !== serverNext) return null;
    const entries = items.map((it) => entryOf(it.fields, hand.schema(), record));
    return entries.every(Boolean) ? recordWith(record, entries) : null;
  }
  // {ok, result} or {ok: false, errors} for the queue with this item last; null: not known
  async function phoneScore(items) {
    const scorer = client || await core();
    const page = readJSON(document, "game-record", null);
    const base = scorer && (page || await keptRecord(GAME));
    const record = base && recordOf(items, base);
    if (!record) return null;
    try {
      // the page's record goes to the worker as its text, the hands after it as objects
      const answer = await (page
        ? scoreOnce(scorer, readText(document, "game-record"),
          record.hands.slice((base.hands || []).length))
        : scorer.score(record));
      if (answer.ok) return { ok: true, result: answer.result };
      if (answer.exit !== 1) return null;
      const last = record.hands.length;
      // each problem of the hand at its field, worded as the server's form words it
      // (#phone-words "refusals"); the Save bar says too that the phone checked it
      const problems = (answer.where || []).filter((p) => !p.hand || p.hand === last);
      const said = refusalErrors(problems, hand.schema(), record.players,
        phoneWords && phoneWords.refusals);
      const errors = said || {};
      if (!said) {  // no words handed over: the phone's own "refused" at each field
        problems.forEach((p) => {
          errors[fieldOf(p, hand.schema(), record.players)] = [pageWords.offline.refused];
        });
        if (!problems.length) errors.__all__ = [pageWords.offline.refused];
        return { ok: false, errors };
      }
      return { ok: false, errors,
        problems: [...Object.values(errors).flat(), pageWords.offline.refused] };
    } catch { return null; }
  }
  // The Save's scoring begun while the keeper looks at the hand: once the form holds a
  // whole hand the phone can read and nothing has been typed for AHEAD_MS, the queue with
  // that hand is scored (the core ready), and a Save of that very hand (the page's record
  // and every hand after it the same, entry for entry) takes that answer instead of
  // starting the core at the tap: the scoring and the worker's round trip were most of a
  // slow phone's time from the tap to the totals. One at a time: a hand changed while it is
  // scored is scored once the core has answered.
  // What the Save then draws at once is made ahead too (the hand's words for the list, the
  // tiles' numbers): their code ran cold in the Save, a third of its time to the totals.
  const AHEAD_MS = 120;
  let ahead = null;  // {page, added, answer, done}: the last record scored and its answer
  let aheadTimer = null;
  let saidAhead = null;  // {fields, summary}: the form's hand in words, as it was typed
  const totalsAhead = new WeakMap();  // a result scored ahead -> its tiles' words (totalsOf)
  function scoreOnce(scorer, page, added) {
    const key = JSON.stringify(added);
    if (ahead && ahead.page === page && ahead.added === key) return ahead.answer;
    const mine = { page, added: key, answer: scorer.score(page, added), done: false };
    ahead = mine;
    mine.answer.then(() => { mine.done = true; }, () => { if (ahead === mine) ahead = null; });
    return mine.answer;
  }
  // the queue as a Save of this item scores it (a stopped hand fixed in the form first)
  function queueWith(item) {
    const all = store.load();
    const before = all.filter((it) => !(editing && it.key === editing));
    return editing && before.length === all.length - 1 ? [item, ...before] : [...before, item];
  }
  function scoreAhead() {
    aheadTimer = null;
    if (saving || !hand.form() || hand.missing()) return;
    // the core's module not kept yet (the page not idle since it was ready): asked for now
    if (!client) { core().then((ready) => { if (ready) scoreAhead(); }); return; }
    if (ahead && !ahead.done) { aheadTimer = setTimeout(scoreAhead, AHEAD_MS); return; }
    const fields = hand.fields();
    saidAhead = { fields: JSON.stringify(fields), summary: hand.describe(fields) };
    phoneScore(queueWith({ fields })).then((scored) => {  // kept by scoreOnce for the Save
      if (scored && scored.ok) {
        totalsAhead.set(scored.result, totalsOf(scored.result, pageWords, phoneWords));
      }
    });
  }
  // the hand's words for the list: as said ahead when the form is as it was then
  function summaryOf(fields) {
    const same = saidAhead && saidAhead.fields === JSON.stringify(fields);
    return same ? saidAhead.summary : hand.describe(fields);
  }
  const handTyped = (event) => {
    const form = hand.form();
    if (!form || !event.target || event.target.form !== form) return;
    clearTimeout(aheadTimer);
    aheadTimer = setTimeout(scoreAhead, AHEAD_MS);
  };
  document.addEventListener("input", handTyped, true);
  document.addEventListener("change", handTyped, true);

  // The phone's result stays while the hands it counts are sent, one by one (the queue is
  // the end of them), until the server's parts replace it; it goes when the queue changed
  // otherwise or stopped. first: a Save's totals alone (the tiles and the strip), the rest
  // of the result drawn in the frame after by phoneRest (they move the page's layout).
  function phoneShow(first = false, saved = null) {
    const queue = saved || store.load();
    const keys = queue.map((it) => it.key);
    const same = phone && queue.length && !STOPPED.has(queue[0].state) &&
      phone.keys.slice(phone.keys.length - keys.length).join() === keys.join();
    if (!same) {
      if (phone) { phone = null; showResult(document, null, pageWords, phoneWords); }
      return;
    }
    // while a hand is on its way (the button says "Saving…" above that hand's own fields)
    // the panel stays as it is, the hand being saved: the next hand's title and who plays
    // it come once the button is back (the server's parts, or the phone's if not sent)
    phone.shown = first
      ? showTotals(document, phone.result, pageWords, phoneWords, totalsAhead.get(phone.result))
      : showResult(document, phone.result, pageWords, phoneWords, { keepPanel: saving });
  }
  function phoneRest(mine) {
    if (mine && phone === mine) {
      showRest(document, mine.result, pageWords, phoneWords, { keepPanel: saving });
    }
  }
  // Instant totals online: when the phone's core is ready, the queue with the hand just
  // saved is scored while its request is on its way, and the page shows the result at once
  // ("not yet saved"); the server's parts confirm it (or replace it, logged: inPlace). Not
  // ready, or a hand the phone cannot read or the rules refuse: the page waits for the
  // server, as without the core.
  // shown(): once the totals are on the screen (or there are none to show).
  async function instant(queued, shown = () => {}) {
    const scored = await phoneScore(queued);
    if (!scored || !scored.ok || !store.load().length) { shown(); return; }
    phone = { result: scored.result, keys: queued.map((it) => it.key) };
    phoneShow(true);
    const mine = phone;
    await afterPaint();
    shown();
    phoneRest(mine);
  }
  // A page opened again (offline, from the phone's copy) with hands kept in its queue: once
  // the phone's core is ready (started after the load event, not left to the idle start),
  // the record and the kept hands are scored and shown as after their Save, "not yet
  // saved", with who plays next; before, the totals came back only with the next Save.
  // Dropped when the queue changed meanwhile (a Save scores it then) or stopped.
  let typed = false;  // the keeper typed in the form: the pickers stay as they are
  document.addEventListener("input", (event) => {
    if (hand.form() && hand.form().contains(event.target)) typed = true;
  });
  async function rescore(kept) {
    if (!kept.length || STOPPED.has(kept[0].state) || !document.getElementById("core-worker")) return;
    if (document.readyState !== "complete") {
      await new Promise((loaded) => window.addEventListener("load", loaded, { once: true }));
    }
    const tag = document.getElementById("core-worker");
    try { await (await import(tag.src)).ready(); } catch { return; }
    const keys = kept.map((it) => it.key);
    const scored = await phoneScore(kept);
    const now = store.load();
    if (!scored || !scored.ok || phone || !now.length || STOPPED.has(now[0].state) ||
        now.map((it) => it.key).join() !== keys.join()) return;
    phone = { result: scored.result, keys };
    phoneShow();
    // who plays the next hand, as the core says it, where the form asks (data-roles-vary)
    const pairs = !editing && !typed && ROLES_VARY && phonePairs(numberAfter(now, serverNext));
    if (pairs) hand.pickers(true, pairs, true);
  }
  // The server's result is the truth: where its tiles differ from the phone's, the page
  // shows the server's (it has them) and the difference is logged.
  function compareWithServer(mine) {
    if (!mine || !mine.shown) return;
    logDifferences(mine.shown, mine.result.hands.length);
  }
  // The same when the server's result comes by a reload (the game ended, an answer without
  // the page's parts, a stale page): the phone's tiles and how many hands they count are
  // kept for this tab (sessionStorage, the last one of each game) and compared on the next
  // load of this game's page, when it shows as many hands; then they are dropped.
  const SHOWN_KEY = "tablestakes.phone-shown." + GAME;
  function reload() {
    try {
      if (phone && phone.shown && Object.keys(phone.shown).length) {
        window.sessionStorage.setItem(SHOWN_KEY,
          JSON.stringify({ hands: phone.result.hands.length, shown: phone.shown }));
      }
    } catch { /* no storage: nothing compared */ }
    window.location.replace(GAME_URL);
  }
  function compareKept() {
    let kept = null;
    try {
      kept = JSON.parse(window.sessionStorage.getItem(SHOWN_KEY) || "null");
      window.sessionStorage.removeItem(SHOWN_KEY);
    } catch { return; }
    if (kept && kept.shown && kept.hands === serverNext - 1) logDifferences(kept.shown, kept.hands);
  }
  function logDifferences(shown, hands) {
    const differ = differences(document, shown);
    if (!differ.length) return;
    const detail = { game: GAME, hands, differ };
    console.warn("Tablestakes: the server's result differs from the phone's: " +
      JSON.stringify(detail));
    document.dispatchEvent(new CustomEvent("tablestakes:differs", { detail }));
  }
  // who plays the hand after the phone's result, as its core says it: each table's pair,
  // for the form's pickers (the keeper may still change them; the server checks them when
  // the hand is sent); null when not known
  function phonePairs(number) {
    if (!phone || !phoneWords || number !== phone.result.hands.length + 1) return null;
    const pairs = panelOf(phone.result, phoneWords.next).pairs;
    return pairs.length === hand.schema().tables.length ? pairs : null;
  }

  const numberField = () => hand.schema().number;

  const sender = createSender({
    store, words,
    post: createPost({ url: root.dataset.sendUrl, csrf: csrfToken, words }),
    lock: createLock("tablestakes.queue." + root.dataset.game, { storage: window.localStorage }),
    isOnline: () => navigator.onLine,
    // the last hand of the list brings back what the page must show after it
    partsFor: (queue) => (queue.length === 1 && hand.form() && window.htmx ? serverNext : 0),
    // a hand on its way; every run's end is drawn by settled (which knows whether a refused
    // hand is back in the form, and so not listed)
    onChange: (state) => {
      if (state !== "sending") return;
      if (saying) saying();
      // the list says so a frame later: the phone's totals of an instant Save (instant),
      // scored meanwhile, are drawn first
      afterPaint().then(render);
    },
    onSettled: settled,
  });

  function settled(outcome) {
    landed += outcome.landed;
    if (outcome.landed) { update = outcome.update; connection(true); }
    if (outcome.state === "waiting" && outcome.offline) connection(false);
    const head = outcome.head;
    if (outcome.answered && (head.state === "stale" || head.state === "over")) {
      // the page is out of date (another phone recorded hands, or the game ended): show
      // the game as it is now; the hand waits in the list for the scorekeeper's word
      reload();
      return;
    }
    if (outcome.state === "idle" || outcome.state === "stopped") finish();
    else render();
  }

  // The queue is empty or stopped: show the page as the server has it now (the hands that
  // landed, scored): in place when the last answer brought the parts, else by a reload; or
  // the stopped hand in the form when nothing landed since.
  function finish() {
    const queue = store.load();
    if (landed) {
      if (!queue.length && update && inPlace(update)) return;
      reload();
      return;
    }
    const head = queue[0];
    const back = hand.form() && head && head.state === "refused" && head.number === serverNext &&
      editing !== head.key;
    // the list drawn knowing the hand is in the form (alone, it is not listed: view.listed),
    // then the form, its reason in view
    if (back) editing = head.key;
    render();
    if (back) edit(head);
  }

  // -- the form ---------------------------------------------------------------------------
  // The form's number after the list changed, keeping what is typed in it.
  function formNumber() {
    if (!hand.form() || editing) return;
    hand.setNumber(numberAfter(store.load(), serverNext));
  }

  // The form for the hand after the last one queued (roles unknown until they are sent).
  function nextHand() {
    const queue = store.load();
    editing = null;
    hand.blank();
    const ahead = queue.length > 0;
    hand.setNumber(numberAfter(queue, serverNext), ahead ? uuid() : hand.defaultKey() || uuid());
    const pairs = phonePairs(numberAfter(queue, serverNext));
    hand.pickers(ahead && ROLES_VARY, pairs, !!pairs);
    const next = document.getElementById("next");
    if (next) next.classList.toggle("next-unknown", ahead);
  }

  // A stopped hand back in the form, with the server's reasons at their fields: as the
  // server read it when it is the hand the form is for now (each count at its player),
  // else as typed, with who was picked.
  function edit(item) {
    editing = item.key;
    hand.blank();
    hand.setNumber(item.number, item.key);
    const picking = ROLES_VARY && item.number > serverNext;
    hand.pickers(picking, pickedOf(item.fields, hand.schema()));
    hand.put(!picking && item.seated ? item.seated : item.fields, { openCards: true });
    if (item.errors) hand.showErrors(item.errors, item.problems);
    const next = document.getElementById("next");
    if (next) next.classList.toggle("next-unknown", item.number > serverNext);
  }

  // -- the list's buttons -----------------------------------------------------------------
  root.addEventListener("click", (event) => {
    const b = event.target.closest("[data-queue-action]");
    if (!b) return;
    const queue = store.load();
    const head = queue[0];
    if (!head) return;
    const action = b.dataset.queueAction;
    if (action === "discard") {
      if (!window.confirm(fill(words.discard, { number: head.number, summary: head.summary }))) return;
      store.save(discardHead(queue, numberField()));
      if (editing === head.key) nextHand();
      else formNumber();
    } else if (action === "renumber") {
      store.save(renumber(queue, numberField()));
      formNumber();
    } else if (action === "reload") {
      window.location.assign(GAME_URL);
      return;
    }
    render();
    sender.now();
  });

  // The page brought up to date in place (queue/page.js), the list drawn again after: the
  // new score first, drawn alone, the rest of the parts in the frame after (swapping: until
  // then; a Save's button stays as it is, "Saving…", until its form is replaced).
  let swapping = null;
  function inPlace(answer) {
    const mine = phone;  // the phone's result for the hands just sent, if it had one
    const swapped = swapIn(answer, { root, hand, keepTyped: !ROLES_VARY, paint: afterPaint });
    if (!swapped) return false;
    landed = 0;
    update = null;
    editing = null;
    if (answer.parts) {
      serverNext = answer.next || serverNext;
      root.dataset.next = String(serverNext);
    }
    const done = () => {
      keepPage(GAME_URL);
      keepTheRecord();
      render();
      compareWithServer(mine);
    };
    if (swapped === true) done();
    else swapping = swapped.then(done).finally(() => { swapping = null; });
    return true;
  }

  // -- saving a hand ----------------------------------------------------------------------
  // on the document, before htmx's own handler on the form (the capture phase): the form is
  // replaced by a new one after each hand saved in place
  document.addEventListener("submit", async (event) => {
    const form = hand.form();
    if (!form || event.target !== form) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (saving) return;  // a second tap while this hand is being put in the queue and sent
    const missing = hand.missing();
    if (missing) { hand.showErrors(missing); return; }
    // a key of its own for every hand saved: a page shown from the phone's cache (or a
    // hand fixed after a refusal) can never pass off a new hand as one already recorded
    const key = uuid();
    const fields = hand.fields();
    const item = {
      key, number: parseInt(hand.number(), 10), fields: fields.map((kv) => [...kv]),
      summary: "", state: "pending", at: Date.now(),
    };
    setField(item, hand.schema().key, key);
    clearTimeout(aheadTimer);
    let scored = null;
    if (!navigator.onLine) {
      // scored on this phone with the hands kept before it: a hand the rules refuse is not
      // kept, its reason at its field
      saving = true;  // a second tap while the phone scores it is dropped
      try {
        const scoring = phoneScore(queueWith(item));  // with the core now (or scored ahead)
        item.summary = summaryOf(fields);  // the list's words, while the core scores
        scored = await scoring;
      } finally { saving = false; }
      if (scored && !scored.ok) { hand.showErrors(scored.errors, scored.problems); return; }
    }
    if (!item.summary) item.summary = summaryOf(fields);
    const queued = enqueue(store.load(), item, editing, null);
    store.save(queued);
    const alone = queued.length === 1;
    editing = null;
    if (!navigator.onLine) {
      phone = scored ? { result: scored.result, keys: queued.map((it) => it.key) } : null;
      // the phone's totals first, drawn alone in the next frame; the list, the next hand's
      // form and the rest of the result in the frame after (they change the page's layout,
      // and the next hand's place on the screen is measured: together they doubled the
      // time to the totals on a slow phone). A second tap meanwhile is dropped (saving).
      if (phone) {
        phoneShow(true, queued);
        saving = true;
        try { await afterPaint(); } finally { saving = false; }
      }
      render();
      nextHand();
      phoneShow();
      // kept on this phone: on to the next hand as after a save (app.js: the score in
      // view, the focus on the next hand's first choice)
      document.dispatchEvent(new CustomEvent("tablestakes:next-hand"));
      return;
    }
    // the request leaves before the page is drawn again: nothing on the page changes
    // until it is on its way (the sender's onChange: "Saving…" on the button, which is
    // then switched off, and the list); a second tap until then is dropped (saving)
    const button = form.querySelector("button[type=submit]");
    const label = button && button.textContent;
    saving = true;
    saying = () => {
      saying = null;
      if (button) { button.disabled = true; button.textContent = words.saving; }
    };
    hand.clearErrors();
    try {
      const mine = queued.map((it) => ({ ...it }));
      if (client && readJSON(document, "game-record", null)) {
        // the core is ready: the phone's totals first, on the screen before the request
        // leaves (a frame and the scoring later, at most 150 ms: the server's answer then
        // confirms what is shown); the request's work (the lock that lets one tab send,
        // the post) drawn before them held their frame back by as much again
        await new Promise((go) => { instant(mine, go); setTimeout(go, 150); });
        await sender.now(true);  // every way it ends draws the list (settled)
      } else {
        // the request first, then the core when it is ready by now (instant)
        const sent = sender.now(true);  // a hand alone in the list: sent at once
        instant(mine);
        await sent;
      }
      if (swapping) await swapping;  // the answer's form in place of this one (inPlace)
    } finally {
      saving = false;
      saying = null;
    }
    if (button) { button.disabled = false; button.textContent = label; }
    // sent: the page is brought up to date (settled); refused alone: back in the form with
    // its reasons; not sent (no connection after all, or another tab sends it): on to the
    // next hand
    const queue = store.load();
    const head = queue[0];
    if (!queue.length || landed) return;
    if (head && head.state === "refused" && queue.length === 1 && alone) {
      if (editing !== head.key) {  // not already back in the form (finish)
        editing = head.key;
        if (head.errors) hand.showErrors(head.errors, head.problems);
      }
      render();
      return;
    }
    if (head && STOPPED.has(head.state)) { finish(); return; }
    nextHand();
    phoneShow();  // the phone's next hand in the panel, now that the button is back
  }, true);

  // While a hand is being sent, its form's previews (the hand's, the cards') are moot: the
  // answer brings the next hand's form, or the reasons at the fields. One not asked for yet
  // is not asked (the server has the Save to answer), and one on its way is not put in: it
  // would grow the Save bar and move the long sheet under the form while the page waits.
  const inForm = (el) => saving && !!el && !!hand.form() && hand.form() !== el &&
    hand.form().contains(el);
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (inForm(event.detail && event.detail.elt)) event.preventDefault();
  });
  document.addEventListener("htmx:beforeSwap", (event) => {
    if (inForm(event.detail && event.detail.target)) event.detail.shouldSwap = false;
  });

  // a hand saved online brings the form, and the record with it: kept once the page is idle
  // (never in the Save itself), and read ready for the next Save (readJSON keeps what it
  // read: a 300-hand game's record took a slow phone's Save 5-7 ms to read there)
  const readAhead = () => {
    csrfToken(true);
    if (!phone) keepServerTotals(document);
    readJSON(document, "game-record", null);
    if (hand.form()) hand.schema();
    // the core's module kept once it is ready (it starts by itself: client.mjs)
    const tag = document.getElementById("core-worker");
    if (!client && tag && pageWords.offline) {
      import(tag.src).then((m) => m.onReady(() => { client = m; })).catch(() => {});
    }
  };
  document.addEventListener("htmx:afterSwap", () => {
    whenIdle(keepTheRecord, 500);
    whenIdle(readAhead, 500);
  });
  window.addEventListener("online", () => sender.now());
  window.addEventListener("offline", render);
  // a phone puts a page in the background and stops its timers: try again on coming back
  document.addEventListener("visibilitychange", () => { if (!document.hidden) sender.now(); });
  window.addEventListener("pageshow", (event) => { if (event.persisted) { render(); sender.now(); } });
  // another tab sent or saved hands of this game: the list as it is now
  window.addEventListener("storage", (event) => { if (event.key === store.key) { render(); formNumber(); } });

  // -- on load ------------------------------------------------------------------------------
  const queue = revive(store.load());
  store.save(queue);
  keepTheRecord();
  compareKept();
  dropOldCopy(window.localStorage, GAME);
  if (queue.length && hand.form()) {
    const head = queue[0];
    if (head.state === "refused" && head.number === serverNext) edit(head);
    else nextHand();
  }
  render();
  sender.run();
  rescore(queue);
  // ask the browser not to clear this site's storage (the hands kept on this phone) when the
  // phone runs short of room: once the page is idle, never in a Save (the question took
  // ~30 ms of a slow phone's Save, asked there)
  if (navigator.storage && navigator.storage.persist) {
    whenIdle(() => navigator.storage.persist().catch(() => {}), 2000);
  }
  whenIdle(readAhead, 1000);
}

// once the page is idle (at most 5 s from now); without requestIdleCallback, after a while
function whenIdle(fn, otherwise) {
  if (window.requestIdleCallback) window.requestIdleCallback(fn, { timeout: 5000 });
  else window.setTimeout(fn, otherwise);
}
