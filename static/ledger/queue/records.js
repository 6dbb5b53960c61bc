// The game's record (the form's #game-record, export_game's JSON) kept on the phone beside
// its queue, in IndexedDB (database "tablestakes", store "records", one entry a game): with
// no connection the phone's core scores the hands kept from it (queue/scoring.js) even
// where the page's own copy is gone. Written after every page load and every Save (the
// record comes with the form), read when the page has none. IndexedDB holds more than
// localStorage's few megabytes, does not block the page while it writes, and is what the
// browser keeps when asked to persist the site's storage. Nothing kept where the browser
// keeps nothing (private mode, no IndexedDB): the page's own copy serves.
// The indexedDB factory is handed in (node --test gives a fake one).

const NAME = "tablestakes";
const STORE = "records";
const OLD_PREFIX = "tablestakes.record.v1.";  // where the record was kept before (localStorage)

const done = (request) => new Promise((resolve, reject) => {
  request.onsuccess = () => resolve(request.result);
  request.onerror = () => reject(request.error);
});

let opened = null;
function open(idb) {
  if (!idb) return Promise.reject(new Error("no IndexedDB"));
  if (opened && opened.idb === idb) return opened.db;
  const request = idb.open(NAME, 1);
  request.onupgradeneeded = () => {
    if (!request.result.objectStoreNames.contains(STORE)) {
      request.result.createObjectStore(STORE, { keyPath: "game" });
    }
  };
  opened = { idb, db: done(request) };
  opened.db.catch(() => { opened = null; });
  return opened.db;
}

/** Keep the record's text for ``game``; resolves true once written, false if not kept. */
export async function keepRecord(game, text, idb = globalThis.indexedDB) {
  if (!text) return false;
  try {
    const db = await open(idb);
    const tx = db.transaction(STORE, "readwrite");
    await done(tx.objectStore(STORE).put({ game: String(game), text, at: Date.now() }));
    return true;
  } catch { return false; }
}

/** The record kept for ``game`` (parsed), or null. */
export async function keptRecord(game, idb = globalThis.indexedDB) {
  try {
    const db = await open(idb);
    const entry = await done(db.transaction(STORE, "readonly").objectStore(STORE).get(String(game)));
    return entry && entry.text ? JSON.parse(entry.text) : null;
  } catch { return null; }
}

/** The copy an older page kept in localStorage, dropped (the record now lives here). */
export function dropOldCopy(storage, game) {
  try { storage.removeItem(OLD_PREFIX + game); } catch { /* nothing kept */ }
}
