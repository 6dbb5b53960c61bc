// The page's side of the phone's core (worker.mjs): one module worker per page, started when
// the page is idle, never before the first paint or a Save.
//
//   import { score, ready } from ".../ledger/core/client.mjs";
//   const result = await score(record);   // or score(recordText, addedHands)
//     // {ok: true, json, result} : json is the text `manage.py score` prints for the record,
//     //                            result the same parsed;
//     // {ok: false, exit: 1, problems, where}: the core refuses the record (one line a
//     //                            problem, as `manage.py score` writes them on standard
//     //                            error; where: each one's hand, table, player and field);
//     // rejects when the worker cannot run here (no WebAssembly, no module worker, the files
//     //   not reachable): the page then works as without it.
//   await ready();   // resolves with the boot time in ms once the core answers
//   state();         // "idle", "starting", "ready" or "failed"
//
// The page says where things are with one tag (ledger/templatetags/core_worker.py):
//   <script type="module" id="core-worker" src=".../client.mjs"
//           data-worker="..." data-pyodide="..." data-core="..."></script>
// With it, the worker starts by itself when the page is idle (start() does it sooner).

let worker = null;
let booted = null;
const pending = new Map();
let sequence = 0;
let memory = null;
let status = "idle";

/** "idle" (not started), "starting", "ready" or "failed". */
export function state() {
  return status;
}

const readyWaiters = [];
/** fn() once the core is ready (at once if it is), without starting it. */
export function onReady(fn) {
  if (status === "ready") fn(); else readyWaiters.push(fn);
}

/** The bytes of WebAssembly memory the worker's Pyodide holds (null until ready). */
export function memoryBytes() {
  return memory;
}

function config() {
  const tag = typeof document !== "undefined" && document.getElementById("core-worker");
  return tag ? { ...tag.dataset } : null;
}

export function supported() {
  return typeof Worker !== "undefined" && typeof WebAssembly !== "undefined";
}

export function start(given) {
  if (booted) return booted;
  const where = given || config();
  status = "starting";
  booted = new Promise((resolve, reject) => {
    if (!where || !supported()) {
      reject(new Error("the phone's core cannot run here"));
      return;
    }
    worker = new Worker(where.worker, { type: "module", name: "tablestakes-core" });
    worker.addEventListener("message", (event) => {
      const message = event.data || {};
      if (message.type === "ready") {
        memory = message.memory;
        status = "ready";
        resolve(message.bootMs);
        readyWaiters.splice(0).forEach((fn) => fn());
      }
      else if (message.type === "failed") reject(new Error(message.error));
      else if (message.type === "scored") {
        const call = pending.get(message.id);
        if (!call) return;
        pending.delete(message.id);
        if (message.exit === 0) {
          call.resolve({ ok: true, exit: 0, json: message.json, result: JSON.parse(message.json) });
        } else {
          call.resolve({ ok: false, exit: message.exit, problems: message.problems,
                         where: message.where || [] });
        }
      }
    });
    worker.addEventListener("error", (event) => reject(new Error(event.message || "worker error")));
    worker.postMessage({ type: "init", pyodide: where.pyodide, core: where.core });
  });
  booted.catch((error) => {
    status = "failed";
    console.info("Tablestakes: no scoring on this phone:", error.message);
  });
  return booted;
}

export function ready() {
  return start();
}

// posted at once when the core is ready (a Save's record reaches the worker in the tap's own
// task, not a turn of the event loop later); added: hands the worker puts after the record's
// (the record may then be the page's text of it, copied to the worker as it is)
export function score(record, added = null) {
  const post = () => new Promise((resolve) => {
    const id = ++sequence;
    pending.set(id, { resolve });
    worker.postMessage(added ? { type: "score", id, record, added } : { type: "score", id, record });
  });
  return status === "ready" ? post() : start().then(post);
}

// Idle start: after the load event, once the page has had no tap or key for QUIET ms, when
// the browser has nothing else to do; at once when the connection goes (the phone scores
// from then on). Pyodide's boot takes a slow phone's processor for seconds: started while
// a keeper types a hand, it slowed the first Save to 1.5-2x (bench/bench_phone.py); started
// once the hand is saved, it boots while the table plays the next one.
export const QUIET = 2000;
if (typeof window !== "undefined" && config()) {
  const INPUT = ["pointerdown", "keydown", "input"];
  let timer = null;
  const go = () => {
    clearTimeout(timer);
    INPUT.forEach((type) => window.removeEventListener(type, wait, true));
    if (!booted) start();
  };
  const idle = () => (window.requestIdleCallback
    ? window.requestIdleCallback(go, { timeout: 10000 }) : go());
  function wait() {
    clearTimeout(timer);
    if (!booted) timer = setTimeout(idle, QUIET);
  }
  const arm = () => {
    INPUT.forEach((type) => window.addEventListener(type, wait, { capture: true, passive: true }));
    window.addEventListener("offline", go, { once: true });
    wait();
  };
  if (document.readyState === "complete") arm();
  else window.addEventListener("load", arm, { once: true });
}
