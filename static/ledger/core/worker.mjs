// The phone's copy of the core: ledger/rules, unchanged, under Pyodide (CPython in
// WebAssembly), in a module Web Worker so that it never holds up the page.
// Started by client.mjs (which is the API: score(record) -> Promise<result>).
//
// Messages in:
//   {type: "init", pyodide: "/static/pyodide/<version>/", core: "/static/ledger/core/rules.<hash>.zip"}
//   {type: "score", id, record, added}
//                                    record: a game record (shared formats/game-record.md),
//                                    as an object or as its JSON text; added (optional):
//                                    hands put after its hands here (a Save sends the page's
//                                    record as its text and the new hand: a copy of the whole
//                                    record as an object took the page 10 ms of a slow phone)
// Messages out:
//   {type: "ready", bootMs, memory}  the core is imported and answers (memory: the bytes of
//                                    WebAssembly memory Pyodide holds, when it says)
//   {type: "failed", error}          Pyodide or the core could not load (the page goes on
//                                    as without the worker)
//   {type: "scored", id, exit, json, problems, where}
//       exactly what `manage.py score -` does with the record: exit 0 with json (the text it
//       prints on standard output, byte for byte), or exit 1 with problems (the lines it
//       prints on standard error: the core's refusal, and ``where``: each problem's hand,
//       table, player and field, to put it at its field); exit 3 if the core itself failed.
const PYTHON = `
import io, json, sys
sys.dont_write_bytecode = True
sys.path.insert(0, "/core")
from ledger.rules.cli import run


def score(text):
    out, err = io.StringIO(), io.StringIO()
    code = run(["-"], stdin=io.StringIO(text), stdout=out, stderr=err)
    return json.dumps([code, out.getvalue(), err.getvalue()])


def details(text):
    # the refusal as data (where each problem is, its code, its numbers and the core's own
    # words), for the page to put it at its field in its language
    from ledger.rules.game import score_record
    from ledger.rules.record import RecordError
    try:
        score_record(json.loads(text))
    except RecordError as error:
        return json.dumps([{"code": p.code, "hand": p.hand, "table": p.table,
                            "player": p.player, "field": p.field, "round": p.round,
                            "text": p.text, "hint": p.hint, "line": p.line,
                            "values": p.values} for p in error.details], default=str)
    except Exception:
        pass
    return "[]"
`;

let score = null;
let details = null;
let memory = null;
const waiting = [];

async function boot(config) {
  const started = performance.now();
  const { loadPyodide } = await import(config.pyodide + "pyodide.mjs");
  const [py, zip] = await Promise.all([
    loadPyodide({ indexURL: config.pyodide }),
    fetch(config.core).then((response) => {
      if (!response.ok) throw new Error(`${config.core}: ${response.status}`);
      return response.arrayBuffer();
    }),
  ]);
  py.unpackArchive(zip, "zip", { extractDir: "/core" });
  py.runPython(PYTHON);
  score = py.globals.get("score");
  details = py.globals.get("details");
  try { memory = py._module.HEAPU8.buffer.byteLength; } catch (error) { memory = null; }
  return performance.now() - started;
}

function recordText(record, added) {
  const text = typeof record === "string" ? record : JSON.stringify(record);
  if (!added || !added.length) return text;
  const whole = JSON.parse(text);
  whole.hands = [...(whole.hands || []), ...added];
  return JSON.stringify(whole);
}

function answer({ id, record, added }) {
  const text = recordText(record, added);
  try {
    const [exit, json, err] = JSON.parse(score(text));
    self.postMessage({ type: "scored", id, exit, json: exit === 0 ? json : null,
                       problems: err ? err.replace(/\n$/, "").split("\n") : [],
                       where: exit === 1 ? JSON.parse(details(text)) : [] });
  } catch (error) {
    self.postMessage({ type: "scored", id, exit: 3, json: null,
                       problems: [String(error && error.message || error)] });
  }
}

// Pyodide's loader waits for ever when WebAssembly may not be compiled (a content security
// policy without 'wasm-unsafe-eval', a browser that refuses it): say so instead.
const fail = (error) => self.postMessage({ type: "failed", error: String(error && error.message || error) });
self.addEventListener("securitypolicyviolation", (event) =>
  fail(`blocked by the content security policy (${event.effectiveDirective})`));
self.addEventListener("unhandledrejection", (event) => fail(event.reason));

self.addEventListener("message", (event) => {
  const message = event.data || {};
  if (message.type === "init") {
    boot(message).then((bootMs) => {
      self.postMessage({ type: "ready", bootMs, memory });
      waiting.splice(0).forEach(answer);
    }, fail);
  } else if (message.type === "score") {
    if (score) answer(message); else waiting.push(message);
  }
});
