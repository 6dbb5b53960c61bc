// The hand form as the queue reads and fills it. Every field name, required choice, the
// value of a draw and the labels that name a table's players come from the form itself
// (ledger/forms/queue.py, handed over as JSON in the form: #hand-form-fields); the box to
// pick who played is the page's <template id="offline-who-played">.
import { fill, readJSON } from "./words.js";

// Who was picked at each table of a saved hand ([[a, b], ...] by table), or null.
export function pickedOf(fields, schema) {
  const values = new Map(fields);
  const out = (schema.tables || []).map((table) => table.picked.map((name) => values.get(name)));
  return out.some((pair) => pair.some(Boolean)) ? out : null;
}

// The required choices not made: {name: [the form's words]}, or null.
export function missingChoices(checked, schema, present) {
  const errors = {};
  Object.entries(schema.required || {}).forEach(([name, text]) => {
    if (present(name) && !checked(name)) errors[name] = [text];
  });
  return Object.keys(errors).length ? errors : null;
}

// A label for another hand's number: from the page's words for it (data-label, "Spiel
// {number} speichern"), wherever the language puts the number; without them, the first
// number in the label is replaced.
export function relabel(text, label, number) {
  if (label && label.includes("{number}")) return fill(label, { number });
  return String(text).replace(/\d+/, String(number));
}
const numbered = (el, number) => relabel(el.textContent, el.dataset.label, number);

export function createFormBridge(doc) {
  let refusedAs = null;  // the form's fields as refused
  let original = [];  // each table's players as the page drew them
  const pickTemplate = doc.getElementById("offline-who-played");

  const form = () => doc.querySelector("form[data-offline-queue]");
  const schema = () => readJSON(doc, "hand-form-fields", { required: {}, tables: [] });
  const field = (name) => form() && form().querySelector(`[name='${CSS.escape(name)}']`);
  const all = (name) => form().querySelectorAll(`[name='${CSS.escape(name)}']`);

  function fields() {
    const out = [];
    new FormData(form()).forEach((value, name) => {
      if (name !== "csrfmiddlewaretoken" && typeof value === "string") out.push([name, value]);
    });
    return out;
  }

  function labelOf(input) {
    const box = input.closest(".field");
    const label = box && box.querySelector(".label");
    return label ? label.textContent.trim() : input.name;
  }

  // A hand in words, from the form: "Ann · Knock · Ann's count 5 · Bob's count 20".
  // given: the form's fields as read just before (fields()), not read again
  function describe(given = null) {
    const f = form();
    const values = new Map(given || fields());
    const skip = new Set(schema().tables.filter((t) => values.get(t.knocker) === t.draw)
      .map((t) => t.kind));  // a drawn table has no "how"
    const parts = [];
    f.querySelectorAll(".field").forEach((box) => {
      const radio = box.querySelector("input[type=radio]:checked");
      if (radio) {
        if (skip.has(radio.name)) return;
        const span = radio.parentNode.querySelector("span");
        parts.push(span ? span.textContent.trim() : radio.value);
        return;
      }
      const input = box.querySelector("input:not([type=radio]):not([type=hidden]), textarea");
      if (input && input.value.trim()) {
        parts.push(labelOf(input).replace(/\s*[:?]$/, "") + " " + input.value.trim());
      }
    });
    return parts.join(" · ");
  }

  function missing() {
    const f = form();
    return missingChoices(
      (name) => !!f.querySelector(`input[name='${CSS.escape(name)}']:checked`), schema(),
      (name) => !!f.querySelector(`input[type=radio][name='${CSS.escape(name)}']`));
  }

  function clearErrors() {
    refusedAs = null;
    const f = form();
    if (!f) return;
    f.querySelectorAll(".field .error, .form-error, #save-error").forEach((el) => el.remove());
    f.querySelectorAll(".field.has-error").forEach((el) => el.classList.remove("has-error"));
  }

  // The reasons at their fields and next to Save, as the server draws them
  // (templates/ledger/_field.html, _entry.html); the first marked field in view, focused.
  function showErrors(errors, problems) {
    clearErrors();
    const f = form();
    let lines = [];
    let first = null;
    Object.keys(errors).forEach((name) => {
      const input = name === "__all__" ? null : field(name);
      const box = input && input.closest(".field");
      lines = lines.concat(errors[name]);
      if (!box) return;
      box.classList.add("has-error");
      const p = doc.createElement("p");
      p.className = "error";
      p.id = "id_" + name + "_error";
      p.setAttribute("role", "alert");
      p.textContent = errors[name].join(" ");
      box.insertBefore(p, box.querySelector(".help"));
      const details = box.closest("details");
      if (details) details.open = true;
      first = first || box;
    });
    const reason = doc.createElement("div");
    reason.className = "save-error";
    reason.id = "save-error";
    reason.setAttribute("role", "alert");
    (problems && problems.length ? problems : lines).forEach((text) => {
      const p = doc.createElement("p");
      p.textContent = text;
      reason.appendChild(p);
    });
    // the reasons stand until the hand is changed: then the preview speaks again (app.css
    // hides #save-error under a preview); one still on its way for this hand is dropped
    const preview = f.querySelector("#hand-preview");
    if (preview) preview.textContent = "";
    refusedAs = JSON.stringify(fields());
    const button = saveButton();
    if (button) button.parentNode.insertBefore(reason, button);
    else f.appendChild(reason);
    if (!first) { reason.scrollIntoView({ block: "nearest" }); return; }
    first.scrollIntoView({ block: "center" });
    const input = first.querySelector("input:not([type=hidden]):not([type=radio]), select, textarea") ||
      first.querySelector("input[type=radio]");
    if (input) input.focus({ preventScroll: true });
  }

  // the live preview answering for the hand as refused would hide its reasons
  doc.addEventListener("htmx:beforeSwap", (event) => {
    const preview = form() && form().querySelector("#hand-preview");
    if (!refusedAs || !preview || event.detail.target !== preview) return;
    if (JSON.stringify(fields()) === refusedAs) event.detail.shouldSwap = false;
    else refusedAs = null;
  });

  // -- who played (offline, where the hands before decide it) -------------------------------
  function tables() {
    const f = form();
    if (!f) return [];
    return schema().tables.map((table) => {
      const knocker = f.querySelector(`input[name='${CSS.escape(table.knocker)}']`);
      return { table, fieldset: knocker && knocker.closest("fieldset") };
    }).filter((t) => t.fieldset);
  }

  function knockers({ table, fieldset }) {
    return [...fieldset.querySelectorAll(`input[name='${CSS.escape(table.knocker)}']`)]
      .filter((radio) => radio.value !== table.draw);
  }
  function seated(t) { return knockers(t).map((radio) => radio.value); }

  // the table's players named as picked: its knocker choices, labels, picker and legend
  function rename(t, pair) {
    const { table, fieldset } = t;
    // a table's card picker is in its row, or (several tables) with the others under them
    const index = table.knocker.match(/\d+/);
    const picker = index && form().querySelector(`details.cards[data-cards='${index[0]}']`);
    const scopes = picker && !fieldset.contains(picker) ? [fieldset, picker] : [fieldset];
    const within = (selector) => scopes.flatMap((scope) => [...scope.querySelectorAll(selector)]);
    knockers(t).forEach((radio, seat) => {
      radio.value = pair[seat];
      const span = radio.parentNode.querySelector("span");
      if (span) span.textContent = pair[seat];
    });
    table.seats.forEach((names, seat) => names.forEach((name) => {
      const label = within(`label[for='id_${CSS.escape(name)}']`)[0];
      if (label) label.textContent = fill(table.labels[name], { name: pair[seat] });
    }));
    within(".picker-tab .picker-name").forEach((el, seat) => {
      el.textContent = pair[seat];
    });
    within("legend [data-seat], summary [data-seat], .count-name[data-seat]").forEach((el) => {
      el.textContent = pair[+el.dataset.seat];
    });
  }

  // byPhone: the pairs are the phone's core's (its words say so, not "pick who played")
  function pickers(show, picked, byPhone = false) {
    tables().forEach((t, idx) => {
      if (!original[idx]) original[idx] = t.table.players;
      let box = t.fieldset.querySelector(".who-played");
      if (!show) {
        if (box) { box.remove(); rename(t, original[idx]); }
        return;
      }
      // as picked, else as the form names them now (the last hand's pick stays)
      const pair = (picked && picked[idx] && picked[idx].every(Boolean)) ? picked[idx]
        : seated(t);
      if (!box && pickTemplate) {
        box = pickTemplate.content.firstElementChild.cloneNode(true);
        box.querySelectorAll("select[data-seat]").forEach((select) => {
          select.name = t.table.picked[+select.dataset.seat];
        });
        const legend = t.fieldset.querySelector("legend");
        t.fieldset.insertBefore(box, legend ? legend.nextSibling : t.fieldset.firstChild);
        box.addEventListener("change", () => {
          rename(t, [...box.querySelectorAll("select[data-seat]")].map((s) => s.value));
        });
      }
      if (!box) return;
      box.classList.toggle("by-phone", !!byPhone);
      box.querySelectorAll("select[data-seat]").forEach((select) => {
        select.value = pair[+select.dataset.seat];
      });
      rename(t, pair);
    });
  }

  // -- the form for the next hand, or for a stopped one --------------------------------------
  function saveButton() {
    const f = form();
    return f && f.querySelector(".savebar button[type=submit], button[type=submit]");
  }

  function setNumber(number, key) {
    const s = schema();
    field(s.number).value = String(number);
    if (key !== undefined) field(s.key).value = key;
    const button = saveButton();
    if (button) button.textContent = numbered(button, number);
    const title = doc.querySelector("#next .next-title");
    if (title) title.textContent = numbered(title, number);
  }

  function blank() {
    form().reset();
    clearErrors();
    form().querySelectorAll("details.cards").forEach((d) => { d.open = false; });
  }

  // values put back in the form (radios and checkboxes checked by value), but its number
  // and key; a picker whose cards are given is opened
  function put(values, { openCards = false } = {}) {
    const s = schema();
    const cards = new Set(s.tables.flatMap((t) => t.seats.map((seat) => seat[1])));
    values.forEach(([name, value]) => {
      if (name === s.key || name === s.number) return;
      const els = all(name);
      els.forEach((el) => {
        if (el.type === "radio" || el.type === "checkbox") el.checked = el.value === value;
        else el.value = value;
      });
      if (openCards && cards.has(name) && value) {
        const details = els[0] && els[0].closest("details");
        if (details) details.open = true;
      }
    });
    if (openCards) {
      form().querySelectorAll("textarea.cards-text").forEach((el) => {
        if (el.value) el.dispatchEvent(new Event("input", { bubbles: true }));
      });
    }
  }

  return {
    form, schema, field, fields, describe, missing, clearErrors, showErrors, pickers,
    setNumber, blank, put, saveButton,
    forget() { original = []; },
    number() { return field(schema().number).value; },
    defaultKey() { return field(schema().key).defaultValue; },
    key() { return field(schema().key).value; },
  };
}
