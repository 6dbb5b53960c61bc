// A table's report page (templates/ledger/report.html, ledger/views/report.py). The form
// works without this script (a plain POST and a redirect); with it, a CAP-IT phone
// remembers who holds it, and the page moves on by itself when the scorekeeper saves the
// hand (the live part, polled by htmx, shows the next hand's number), and to the game's end
// (final score and money, read-only) when that hand ended the game.
// The page's words (#script-words, ledger/presentation/script_words.py), in its language.
const WORDS = (() => {
  try {
    const el = document.getElementById("script-words");
    return (el && JSON.parse(el.textContent).report) || {};
  } catch { return {}; }
})();
const QUEUED = WORDS.queued ||
  "No connection: this report waits on this phone and is sent when the connection returns.";
const page = document.querySelector("[data-report-page]");
if (page) {
  const form = page.querySelector("[data-report-form]");
  const key = "tablestakes.report.player." + location.pathname;
  const radios = form ? form.querySelectorAll('input[name="player"]') : [];
  if (radios.length) {
    const stored = localStorage.getItem(key);
    if (stored && !form.querySelector('input[name="player"]:checked')) {
      radios.forEach((r) => { if (r.value === stored) r.checked = true; });
    }
    form.addEventListener("submit", () => {
      const chosen = form.querySelector('input[name="player"]:checked');
      if (chosen) localStorage.setItem(key, chosen.value);
    });
  }
  let touched = false;
  if (form) form.addEventListener("input", () => { touched = true; });
  document.addEventListener("htmx:afterSwap", (event) => {
    const live = document.getElementById("live");
    if (!live || !live.contains(event.detail.elt) && event.detail.elt !== live) return;
    // the game ended (or an undo opened it again): the page shows its end, or the form
    // again; nothing typed here could be sent to an ended game
    const ended = Boolean(live.querySelector("#over"));
    if (ended !== ("over" in page.dataset)) { location.reload(); return; }
    const title = live.querySelector(".next-title");
    const shown = title ? (title.textContent.match(/\d+/) || [])[0] : null;
    if (shown && shown !== page.dataset.number && !touched) location.reload();
  });
}

// Offline: a report typed without a connection waits on this phone (localStorage) and is
// sent once, as the same plain POST, when the connection returns. The server keeps the same
// report once (a second sending changes nothing) and refuses it if its hand was saved
// meanwhile ("Hand 5 was already recorded; this phone moves on to hand 6").
if (page) {
  const form = page.querySelector("[data-report-form]");
  const queueKey = "tablestakes.report.queue." + location.pathname;
  const note = (text) => {
    let el = page.querySelector(".report-queued");
    if (!el) {
      el = document.createElement("p");
      el.className = "report-queued flash-warning";
      el.setAttribute("role", "status");
      page.insertBefore(el, form);
    }
    el.textContent = text;
  };
  const send = () => {
    const stored = localStorage.getItem(queueKey);
    if (!stored || !navigator.onLine) return;
    localStorage.removeItem(queueKey); // sent once; the server drops a repeat anyway
    const { action, fields } = JSON.parse(stored);
    const out = document.createElement("form");
    out.method = "post";
    out.action = action;
    out.hidden = true;
    for (const [name, value] of fields) {
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = value;
      out.appendChild(input);
    }
    document.body.appendChild(out);
    out.submit();
  };
  if (form) {
    form.addEventListener("submit", (event) => {
      if (navigator.onLine) return;
      event.preventDefault();
      const fields = [...new FormData(form).entries()].map(([n, v]) => [n, String(v)]);
      localStorage.setItem(queueKey, JSON.stringify({ action: form.action, fields }));
      note(QUEUED);
    });
  }
  if (localStorage.getItem(queueKey)) {
    if (navigator.onLine) send();
    else note(QUEUED);
  }
  window.addEventListener("online", send);
}
