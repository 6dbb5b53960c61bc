// Sending the queue, one hand at a time and in order (the protocol: ledger/views/queue.py).
// No DOM: the store, the transport, the lock, the clock and "online?" are handed in.
//
// The states: idle -> sending -> (recorded: the next hand) ... -> idle when the list is
// empty; -> stopped when the server refused the first hand (or the page is stale, the
// game over, the log-in gone: STOPPED); -> waiting when there was no answer (no
// connection, a time-out, a server error): a retry, each waiting longer (1 s, 2 s, ... 60
// s); -> offline when the browser says it has no connection; -> busy when another tab
// sends the queue. run() returns a promise of the run's outcome,
// {state, landed, update, head, answered}: landed, how many hands were recorded in this
// run; update, the last answer that carries the page's changed parts; head, the stopped
// hand, and answered when the server stopped it in this run (not before). A run
// asked for while one is going gets the same promise.
//
// now(true), a Save's run: a hand alone in the list (nothing before it to keep in order) is
// posted at once, and the lock that lets one tab send is asked for after it: the browser's
// answer to the lock is a round trip to it, 7-24 ms of a slow phone's Save when the request
// waited for it. Under the lock the run takes that answer for the hand instead of posting
// it again; if another tab holds the lock, that tab sends the list, and a hand it posts
// again is stored once (the server knows its key).
import { fill } from "./words.js";
import { STOPPED } from "./store.js";
import { BUSY } from "./lock.js";

export function createSender({
  store, post, lock = (fn) => fn(() => {}), isOnline = () => true,
  partsFor = () => 0, words = {}, onChange = () => {}, onSettled = () => {},
  timers = globalThis,
}) {
  let state = "idle";
  let running = null;
  let retryTimer = null;
  let retries = 0;

  function set(next) { state = next; onChange(state); }

  async function loop(renew, early = null) {
    let landed = 0;
    let update = null;
    for (;;) {
      renew();
      const queue = store.load();
      const head = queue[0];
      if (!head) return { state: "idle", landed, update };
      if (STOPPED.has(head.state)) return { state: "stopped", landed, update, head };
      if (!isOnline()) return { state: "offline", landed, update };
      // the request leaves first, then the list and the page say so (the other tabs read
      // the list; onChange draws): neither writing the list nor drawing the page stands
      // between the tap on Save and the hand's request (a hand left "sending" by a page
      // closed meanwhile is pending again on the next load: store.revive)
      head.state = "sending";
      const sent = early && early.key === head.key ? early.answer : post(head, partsFor(queue));
      early = null;
      const listed = store.load();  // as it is now (the list may have changed meanwhile)
      if (listed[0] && listed[0].key === head.key) {
        listed[0].state = "sending";
        store.save(listed);
      }
      set("sending");
      const answer = await sent;
      const now = store.load();
      const item = now[0];
      if (!item || item.key !== head.key) continue;  // discarded meanwhile: the next one
      if (answer.status === "recorded") {
        now.shift();
        store.save(now);
        landed += 1;
        update = answer.parts || answer.page ? answer : null;
        retries = 0;
        continue;
      }
      if (answer.status === "retry") {
        item.state = "pending";
        item.message = fill(words.retry, { reason: answer.message || "" });
        store.save(now);
        return { state: "waiting", landed, update, offline: !!answer.offline };
      }
      item.state = STOPPED.has(answer.status) ? answer.status : "refused";
      item.message = answer.message || "";
      item.errors = answer.errors || null;
      item.problems = answer.problems || null;
      item.next = answer.next || null;
      item.seated = answer.fields || null;
      store.save(now);
      return { state: "stopped", landed, update, head: item, answered: true };
    }
  }

  function later() {
    if (retryTimer) return;
    const wait = Math.min(60, 2 ** retries) * 1000;
    retries += 1;
    retryTimer = timers.setTimeout(() => { retryTimer = null; run(); }, wait);
  }

  // the hand alone in the list, posted now: {key, answer}; null when the list is not that
  function postAlone() {
    const queue = store.load();
    const head = queue[0];
    if (queue.length !== 1 || head.state !== "pending" || !isOnline()) return null;
    head.state = "sending";
    return { key: head.key, answer: post(head, partsFor(queue)) };
  }

  function run(eager = false) {
    if (running) return running;
    const early = eager ? postAlone() : null;
    running = (async () => {
      let outcome;
      try {
        outcome = await lock((renew) => loop(renew, early));
      } catch (error) {
        outcome = { state: "waiting", landed: 0, update: null, error };
      }
      if (outcome === BUSY) outcome = { state: "busy", landed: 0, update: null };
      running = null;
      set(outcome.state);
      if (outcome.state === "waiting") later();
      onSettled(outcome);
      return outcome;
    })();
    return running;
  }

  // Now, not after the wait: the connection is back, the page is shown again, a new hand.
  function now(eager = false) {
    retries = 0;
    if (retryTimer) { timers.clearTimeout(retryTimer); retryTimer = null; }
    return run(eager);
  }

  return {
    run, now,
    get state() { return state; },
    get retries() { return retries; },
    get waiting() { return retryTimer !== null; },
  };
}

// The transport: one hand POSTed as the form would send it, its answer as the protocol's
// JSON, or {status: "retry" | "login", message} when the answer is not one.
// csrf(fresh): the CSRF token; the page may keep the one it read (the cookie is a round
// trip to the browser: 3 ms of a slow phone's Save), and is asked for it fresh when the
// server refused the kept one (a log-in since, in another tab): the hand is sent again
// once with it (nothing was stored: the server checks the token first).
export function createPost({ url, csrf, words, timeout = 15000, fetch = globalThis.fetch }) {
  return async function post(item, parts, fresh = false) {
    const body = new FormData();
    item.fields.forEach(([name, value]) => body.append(name, value));
    if (parts) body.append("parts", String(parts));
    const token = csrf(fresh);
    body.append("csrfmiddlewaretoken", token);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeout);
    let response;
    try {
      response = await fetch(url, {
        method: "POST", body, credentials: "same-origin", redirect: "manual",
        headers: { "Accept": "application/json", "X-CSRFToken": token },
        signal: controller.signal,
      });
    } catch (error) {
      return { status: "retry", offline: true,
        message: error && error.name === "AbortError" ? words.timeout : words.no_connection };
    } finally {
      clearTimeout(timer);
    }
    if (response.status === 403 && !fresh && csrf(true) !== token) {
      return post(item, parts, true);
    }
    if (response.type === "opaqueredirect" || response.status === 403) {
      return { status: "login", message: words.login };
    }
    if (response.status === 404) return { status: "login", message: words.not_found };
    if (response.status >= 500) {
      return { status: "retry", message: fill(words.server_error, { status: response.status }) };
    }
    try {
      return await response.json();
    } catch {
      return { status: "retry", message: words.cut_off };
    }
  };
}
