// The queue of hands not sent yet, kept in the browser (localStorage, by game), and what
// can be done to it. No DOM here: the storage is handed in (node --test gives a fake one).
//
// An item: {key, number, fields: [[name, value]...], summary, state, at, message?,
// errors?, problems?, next?, seated?}. States: pending, sending, and the ones that stop the
// queue (STOPPED): refused, stale, over, login.

export const STOPPED = new Set(["refused", "stale", "over", "login"]);

export function storeKey(game) { return "tablestakes.queue.v1." + game; }

// load() and save(queue) on storage[key]; when the browser keeps nothing (private mode,
// full), the queue is kept in memory for as long as the page is open.
export function createStore(storage, key) {
  let memory = null;
  return {
    key,
    load() {
      if (memory) return memory;
      try { return JSON.parse(storage.getItem(key) || "[]"); } catch { return []; }
    },
    save(queue) {
      try {
        if (queue.length) storage.setItem(key, JSON.stringify(queue));
        else storage.removeItem(key);
        memory = null;
      } catch {
        memory = queue;
      }
    },
  };
}

export function setField(item, name, value) {
  item.fields.forEach((kv) => { if (kv[0] === name) kv[1] = String(value); });
  if (item.seated) item.seated.forEach((kv) => { if (kv[0] === name) kv[1] = String(value); });
}

// The number of the hand after the last one in the list (serverNext: the first hand the
// page does not show).
export function numberAfter(queue, serverNext) {
  if (!queue.length) return serverNext;
  const head = queue[0];
  const first = head.state === "stale" && head.next ? head.next : head.number;
  return first + queue.length;
}

// A hand saved: last in the list, or, when it is the stopped first hand fixed in the form
// (editing: its key), first again, and the hands after it no longer stopped.
export function enqueue(queue, item, editing, numberField) {
  if (numberField) setField(item, numberField, item.number);
  if (editing && queue[0] && queue[0].key === editing) {
    queue[0] = item;
    queue.forEach((it) => { if (STOPPED.has(it.state)) it.state = "pending"; });
  } else {
    queue.push(item);
  }
  return queue;
}

// The first hand thrown away: the hands after it move up one number.
export function discardHead(queue, numberField) {
  const head = queue.shift();
  if (!head) return queue;
  queue.forEach((item, i) => {
    item.number = head.number + i;
    setField(item, numberField, item.number);
  });
  return queue;
}

// A stale first hand sent as the number the server named, the others after it.
export function renumber(queue, numberField) {
  const head = queue[0];
  if (!head || !head.next) return queue;
  const delta = head.next - head.number;
  queue.forEach((item) => {
    item.number += delta;
    setField(item, numberField, item.number);
    if (STOPPED.has(item.state)) { item.state = "pending"; item.message = ""; }
  });
  return queue;
}

// On load: a hand left "sending" (the page closed before the answer) is sent again.
export function revive(queue) {
  queue.forEach((item) => { if (item.state === "sending") item.state = "pending"; });
  return queue;
}
