// The scorekeeper's side of the tables' reports (issue 23; ledger/templatetags/reports.py,
// ledger/views/report.py game_reports). Every 2 s it asks for the current hand's reports
// (If-None-Match: an empty 304 while nothing changed); a new or changed report fills that
// table's fields of the hand form (by the form's field names) and each table's state says
// waiting, reported (or changed) by the table at HH:MM, or changed by the scorekeeper.
// CAP-IT: who went out comes from all the players' reports together: two who say they went
// out are a conflict, shown with both names at "Who went out?" (nothing is chosen for the
// scorekeeper); all who say no mean the stock ran out.
// Nothing is saved here: the scorekeeper's Save records the hand, as always. A two-hand game
// with a confirm link: the other player's answers are shown beside the saved hands.
// The page's words (#script-words, ledger/presentation/script_words.py), in its language.
const WORDS = (() => {
  try {
    const el = document.getElementById("script-words");
    return (el && JSON.parse(el.textContent).report) || {};
  } catch { return {}; }
})();
const card = document.querySelector("[data-report-poll]");
if (card) {
  const url = card.dataset.reportPoll;
  let etag = null;
  const applied = {}; // label -> {id, number, fields}

  const handForm = () => document.querySelector("form[data-hand-form]");
  const byName = (form, name) => form.querySelectorAll(`[name="${CSS.escape(name)}"]`);

  function valueOf(form, name) {
    const els = byName(form, name);
    for (const el of els) {
      if (el.type === "radio" || el.type === "checkbox") { if (el.checked) return el.value; }
      else return el.value;
    }
    return "";
  }

  function setValue(form, name, value) {
    for (const el of byName(form, name)) {
      if (el.type === "radio" || el.type === "checkbox") el.checked = el.value === value;
      else el.value = value;
    }
  }

  function stateOf(label) {
    const li = card.querySelector(`[data-report-label="${CSS.escape(label)}"]`);
    return li ? { li, text: li.querySelector(".report-state") } : null;
  }

  function say(label, state, text) {
    const s = stateOf(label);
    if (!s) return;
    s.li.dataset.state = state;
    if (s.text.textContent !== text) s.text.textContent = text;
  }

  // a two-hand game: the other player's answers beside the saved hands, newest first
  function confirmations(list) {
    const part = card.querySelector("#confirm-part");
    if (!part) return;
    let ul = part.querySelector(".confirm-answers");
    if (!ul) {
      ul = document.createElement("ul");
      ul.className = "confirm-answers";
      ul.setAttribute("aria-live", "polite");
      part.prepend(ul);
    }
    const items = list.map((a) => {
      const li = document.createElement("li");
      li.className = a.correct ? "ok" : "warn";
      const b = document.createElement("b");
      b.textContent = (WORDS.hand || "Hand %(number)s").replace("%(number)s", a.number);
      li.append(b, `: ${a.words}`);
      return li;
    });
    ul.replaceChildren(...items);
  }

  function apply(data) {
    if (Array.isArray(data.confirm)) confirmations(data.confirm);
    const form = handForm();
    const numberField = form && form.querySelector('[name="number"]');
    const current = numberField && String(data.number) === numberField.value;
    let filled = false;
    for (const part of data.parts) {
      const seen = applied[part.label];
      if (part.state === "waiting") {
        if (seen && form && current && seen.number === data.number) {
          // withdrawn: clear what it filled and nobody changed
          for (const [name, value] of Object.entries(seen.fields)) {
            if (valueOf(form, name) === value) setValue(form, name, "");
          }
          filled = true;
        }
        delete applied[part.label];
        say(part.label, "waiting", WORDS.waiting || "waiting");
        continue;
      }
      if (!form || !current) continue;
      const conflict = part.state === "conflict";
      if (!seen || seen.id !== part.id || seen.number !== data.number) {
        for (const name of part.clear || []) setValue(form, name, "");
        for (const [name, value] of Object.entries(part.fields)) setValue(form, name, value);
        applied[part.label] = { id: part.id, number: data.number, fields: part.fields, conflict };
        filled = true;
      } else if (seen.conflict !== conflict) {
        // the same report, now in (or out of) a conflict: what it filled and nobody
        // changed gives way to what it fills now
        for (const [name, value] of Object.entries(seen.fields)) {
          if (valueOf(form, name) === value) setValue(form, name, "");
        }
        for (const [name, value] of Object.entries(part.fields)) setValue(form, name, value);
        applied[part.label] = { ...seen, fields: part.fields, conflict };
        filled = true;
      }
      say(part.label, conflict ? "conflict" : part.changed ? "changed" : "reported", part.text);
    }
    if (form && current && wentOut(form, data)) filled = true;
    roundNote(form, current ? data.went_out : null);
    if (filled && form) form.dispatchEvent(new Event("change", { bubbles: true }));
    marks();
  }

  // CAP-IT: who went out is the round's, from every player's report (the server's
  // went_out): the one who said so, "Nobody: stock out" when all said no, nothing while two
  // say they did. Set while the form holds nothing or what the reports put there before.
  let outApplied = null; // {number, value}
  function wentOut(form, data) {
    const said = data.went_out;
    if (!said) return false;
    const before = outApplied && outApplied.number === data.number ? outApplied.value : "";
    outApplied = { number: data.number, value: said.value };
    const now = valueOf(form, "went_out");
    if (said.value === now || (now !== "" && now !== before)) return false; // his choice
    setValue(form, "went_out", said.value);
    return true;
  }

  // what the reports say of the round's end, at "Who went out?": a conflict, with the
  // names, or that every player said no
  function roundNote(form, said) {
    let note = document.getElementById("report-went-out");
    const field = form && form.querySelector('[name="went_out"]');
    const box = field && field.closest(".field");
    if (!said || !said.text || !box) {
      if (note) note.remove();
      return;
    }
    if (!note) {
      note = document.createElement("p");
      note.id = "report-went-out";
      box.append(note);
    }
    const conflict = said.state === "conflict";
    note.className = conflict ? "save-error report-conflict" : "help report-stock";
    note.setAttribute("role", conflict ? "alert" : "status");
    if (note.textContent !== said.text) note.textContent = said.text;
  }

  // a value the scorekeeper changed after a table reported it
  function marks() {
    const form = handForm();
    if (!form) return;
    for (const [label, seen] of Object.entries(applied)) {
      const differs = Object.entries(seen.fields).some(([n, v]) => valueOf(form, n) !== v);
      const s = stateOf(label);
      if (differs && s && s.li.dataset.state !== "keeper") {
        s.li.dataset.state = "keeper";
        s.text.textContent = WORDS.keeper || "changed by the scorekeeper";
      }
    }
  }
  document.addEventListener("input", (e) => { if (e.target.closest("form[data-hand-form]")) marks(); });
  document.addEventListener("change", (e) => { if (e.isTrusted && e.target.closest("form[data-hand-form]")) marks(); });

  async function poll() {
    if (document.hidden) return;
    try {
      const headers = { Accept: "application/json" };
      if (etag) headers["If-None-Match"] = etag;
      const answer = await fetch(url, { headers, cache: "no-store", credentials: "same-origin" });
      if (answer.status === 304 || !answer.ok) return;
      etag = answer.headers.get("ETag");
      apply(await answer.json());
    } catch (error) { /* offline: the next poll tries again */ }
  }
  poll();
  setInterval(poll, 2000);
}
