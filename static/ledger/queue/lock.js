// One tab at a time sends a game's queue: the Web Locks API where the browser has it, else
// a lease in localStorage that a tab takes, renews while it sends and gives back. A tab
// that finds the queue taken does not wait: the other tab sends what is in the list (it
// reads the list again before every hand), and this one hears of it by the storage event.

export const BUSY = Symbol("busy");

export function createLock(name, {
  locks = globalThis.navigator && globalThis.navigator.locks,
  storage = null, now = () => Date.now(), lease = 45000,
  id = Math.random().toString(36).slice(2) + now().toString(36),
} = {}) {
  const key = "tablestakes.lock." + name;
  function holder() {
    try { return JSON.parse(storage.getItem(key) || "null"); } catch { return null; }
  }
  function take() {
    try { storage.setItem(key, JSON.stringify({ id, until: now() + lease })); } catch { /* */ }
  }
  // withLock(fn): fn(renew)'s answer, or BUSY when another tab holds the lock.
  return async function withLock(fn) {
    if (locks && locks.request) {
      return locks.request(name, { ifAvailable: true },
        (lock) => (lock ? fn(() => {}) : BUSY));
    }
    if (!storage) return fn(() => {});
    const other = holder();
    if (other && other.id !== id && other.until > now()) return BUSY;
    take();
    const mine = holder();
    if (mine && mine.id !== id) return BUSY;
    try {
      return await fn(take);
    } finally {
      const still = holder();
      if (still && still.id === id) {
        try { storage.removeItem(key); } catch { /* */ }
      }
    }
  };
}
