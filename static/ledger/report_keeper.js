// The scorekeeper's side of the tables' reports (issue 23; ledger/templatetags/reports.py,
// ledger/views/report.py game_reports). Every 2 s it asks for the current hand's reports
// (If-None-Match: an empty 304 while nothing changed); a new or changed report fills that
// table's fields of the hand form (by the form's field names) and each table's state says
// waiting, reported (or changed) by the table at HH:MM, or changed by the scorekeeper.
// CAP-IT: who went out comes from all the players' reports together: two who say they went
// out are a conflict, shown with both names at "Who went out?" (nothing is chosen for the
// scorekeeper); all who say no mean the stock ran out.
// With several tables each table's state is also said in its row of the hand form, and a
// value a report filled carries a small mark while it stands (issue 37).
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
    rowSay(label, state, text);
    const s = stateOf(label);
    if (!s) return;
    s.li.dataset.state = state;
    if (s.text.textContent !== text) s.text.textContent = text;
  }

  // Several tables (issue 37): each table's state also with its row of the hand form (the
  // card with the links is far below the form), found by the table's field names (t2_...).
  const tableOf = {}; // label -> the table's number in the form
  let grew = false; // a row got its line: the page keeps the last row above Save (app.js)
  function learn(part) {
    for (const name of Object.keys(part.fields || {}).concat(part.clear || [])) {
      const m = /^t(\d+)_/.exec(name);
      if (m) { tableOf[part.label] = m[1]; return; }
    }
  }
  // In the row's first line, after the table's name: a dot and the report's time, its whole
  // words as the title (the card's list, a live region, says them to a screen reader). A
  // line of its own under each row pushed the third table under the Save bar; waiting is
  // said in the card only (a row without the dot has no report).
  const atOf = {}; // label -> the time of its report
  function rowSay(label, state, text) {
    const form = handForm();
    const n = tableOf[label];
    const row = form && n && form.querySelector(`fieldset.table-row[data-table="${n}"]`);
    if (!row) return;
    let mark = row.querySelector(".row-report");
    if (state === "waiting") { if (mark) mark.remove(); return; }
    if (!mark) {
      mark = document.createElement("span");
      mark.className = "row-report";
      mark.setAttribute("aria-hidden", "true");
      const name = row.querySelector("legend .table-label");
      if (name) name.after(" ", mark);
      else { const legend = row.querySelector("legend"); if (legend) legend.prepend(mark, " "); }
      grew = true;
    }
    mark.dataset.state = state;
    mark.title = text;
    const at = atOf[label] || "";
    if (mark.textContent !== at) mark.textContent = at;
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
      learn(part);
      if (part.at) atOf[part.label] = part.at;
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
    if (grew) { grew = false; document.dispatchEvent(new CustomEvent("tablestakes:rows-grew")); }
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

  // a value the scorekeeper changed after a table reported it; and a mark on each value of
  // the form that a report filled and that still stands (issue 37): the chosen button, or
  // the box's field
  function marks() {
    const form = handForm();
    if (!form) return;
    const numberField = form.querySelector('[name="number"]');
    form.querySelectorAll(".from-report").forEach((el) => el.classList.remove("from-report"));
    for (const [label, seen] of Object.entries(applied)) {
      const differs = Object.entries(seen.fields).some(([n, v]) => valueOf(form, n) !== v);
      const s = stateOf(label);
      if (differs && (!s || s.li.dataset.state !== "keeper")) {
        if (s) s.li.dataset.state = "keeper";
        if (s) s.text.textContent = WORDS.keeper || "changed by the scorekeeper";
        rowSay(label, "keeper", WORDS.keeper || "changed by the scorekeeper");
      }
      if (!numberField || String(seen.number) !== numberField.value) continue;
      for (const [name, value] of Object.entries(seen.fields)) {
        if (value === "" || valueOf(form, name) !== value) continue;
        for (const el of byName(form, name)) {
          const mark = el.type === "radio" ? (el.checked && el.closest(".seg-opt"))
            : el.closest(".field");
          if (mark) mark.classList.add("from-report");
        }
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
