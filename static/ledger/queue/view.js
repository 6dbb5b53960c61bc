// The list of hands not sent yet, just above the sheet: cloned from the page's own
// <template>s (templates/ledger/_offline_queue.html), with the page's words.
import { counted, fill } from "./words.js";
import { STOPPED } from "./store.js";

// What the list says, from the queue alone (no DOM): tested by node --test.
export function describeQueue(queue, words, online) {
  const head = queue[0];
  const stopped = !!head && STOPPED.has(head.state);
  const count = queue.length;
  let note;
  if (stopped) {
    note = fill(words.stopped, { number: head.number, advice: words.advice[head.state] || "" }) +
      (count > 1 ? words.after : "");
  } else {
    note = online ? words.sending : words.kept;
  }
  const items = queue.map((item, index) => {
    const state = index > 0 && stopped ? "waiting" : item.state;
    const actions = [];
    if (index === 0) {
      if (item.state === "stale" && item.next) actions.push("renumber");
      if (item.state === "pending" && online) actions.push("send");
      if (item.state === "login") actions.push("reload");
      if (STOPPED.has(item.state)) actions.push("discard");
    }
    return {
      number: item.number, state,
      title: fill(words.hand, { number: item.number }),
      status: words.states[state] || item.state,
      summary: item.summary,
      why: index === 0 && item.message ? item.message : "",
      alert: STOPPED.has(item.state),
      actions,
      renumber: item.next ? fill(words.send_as, { number: item.next }) : "",
    };
  });
  return {
    count: counted(words, "count", count, words.count_one, words.count_many),
    score: !count ? "" : counted(words, "score", count, words.score_one, words.score_many),
    note, items,
  };
}

// The hands the list shows: none when the only one is a refused hand back in the form
// (editing: the key of the hand the form holds). Its reason is at its field and next to
// Save, as for any hand refused at Save; a list saying "Sending stopped" again, and the
// totals "without the hand not sent yet", would only repeat it. It stays kept on this
// phone (a reload puts it back in the form), and the list shows it again when the form
// goes on to another hand or hands wait after it.
export function listed(queue, editing) {
  const head = queue[0];
  if (queue.length === 1 && editing && head.key === editing && head.state === "refused") return [];
  return queue;
}

function slot(el, name) { return el.querySelector(`[data-slot='${name}']`); }

export function createView(doc, root, words) {
  const listTemplate = doc.getElementById("offline-queue-list");
  const itemTemplate = doc.getElementById("offline-queue-item");

  // the totals on the page are the server's: say that the hands in the list are not in them
  function scoreNote(text) {
    const board = doc.querySelector(".scoreboard");
    let note = doc.getElementById("score-pending");
    if (!board || !text) { if (note) note.remove(); return; }
    if (!note) {
      note = doc.createElement("p");
      note.id = "score-pending";
      note.className = "score-pending";
      board.parentNode.insertBefore(note, board.nextSibling);
    }
    note.textContent = text;
  }

  // A hand stopped for the scorekeeper's word (another phone saved its number, a refusal,
  // the game over, a login) is said at the form, above it, and brought into view once: not
  // below the fold while the form goes on to the next hand. Else the list follows the form.
  function place(stopped) {
    const entry = doc.getElementById("entry");
    if (entry && entry.parentNode === root.parentNode) {
      if (stopped && root.nextElementSibling !== entry) entry.before(root);
      else if (!stopped && entry.nextElementSibling !== root) entry.after(root);
    }
    if (!stopped) { delete root.dataset.shown; return; }
    if (root.dataset.shown) return;
    root.dataset.shown = "1";
    root.scrollIntoView({ block: "start" });
  }

  function render(all, online, editing = null) {
    const queue = listed(all, editing);
    // a lone hand on its way while the list is closed: the Save button says so ("Saving…")
    // and the list stays closed. Opened, it would move everything under it (a long sheet
    // laid out and drawn again while the server answers) only to close again a moment
    // later; it opens when a hand is kept (not sent, stopped) or more are waiting.
    if (root.hidden && queue.length === 1 && queue[0].state === "sending") return;
    root.hidden = queue.length === 0;
    root.textContent = "";
    const said = describeQueue(queue, words, online);
    scoreNote(said.score);
    const stopped = queue.length > 0 && STOPPED.has(queue[0].state);
    place(stopped);
    if (!queue.length || !listTemplate || !itemTemplate) return;
    const list = listTemplate.content.cloneNode(true);
    slot(list, "count").textContent = said.count;
    slot(list, "note").textContent = said.note;
    const ol = list.querySelector("ol");
    said.items.forEach((item) => {
      const li = itemTemplate.content.firstElementChild.cloneNode(true);
      li.classList.add("queue-" + item.state);
      li.dataset.number = item.number;
      li.dataset.state = item.state;
      slot(li, "title").textContent = item.title;
      slot(li, "state").textContent = item.status;
      slot(li, "summary").textContent = item.summary;
      const why = slot(li, "why");
      if (item.why) {
        why.textContent = item.why;
        why.setAttribute("role", item.alert ? "alert" : "status");
      } else {
        why.remove();
      }
      const actions = slot(li, "actions");
      actions.querySelectorAll("[data-queue-action]").forEach((button) => {
        const action = button.dataset.queueAction;
        if (!item.actions.includes(action)) button.remove();
        else if (action === "renumber") button.textContent = item.renumber;
      });
      if (!item.actions.length) actions.remove();
      ol.appendChild(li);
    });
    root.appendChild(list);
  }

  return { render };
}
