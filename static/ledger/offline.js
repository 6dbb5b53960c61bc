// The game page's hand form never loses a hand (templates/ledger/_offline_queue.html).
//
// Saving a hand puts it first in this phone's queue (localStorage, with its idempotency key
// and the number it was typed as), then the queue is sent, one hand at a time and in order,
// to /games/N/hands/send/ (ledger/views/queue.py). A hand leaves the queue only when the
// server says it is recorded: so with no connection, a time-out or a server error the hand
// stays, shown as "not sent yet", and is sent again when the connection returns (the online
// event, and retries that wait longer each time). The server stores a resent hand once (it
// knows the key). If the server refuses a hand, the queue stops there: the hand comes back
// into the form with the reason at its field, and the hands after it wait.
//
// When the queue is empty again, the page is brought up to date in place, with no reload:
// the last hand sent asks for the parts of the page that changed (parts=N, N being the first
// hand the page does not show) and they come back with its answer, in the same round trip;
// htmx puts them in place (htmx.swap: the next hand's form, the score, the new rows, the
// totals, the undo button), or, when the hand ended the game, the game page as a reload
// would draw it. A refused hand stays in the form as typed, its reasons next to Save and at
// its fields.
//
// Without a connection the form goes on to the next hand. Where who plays next depends on
// the hands not yet sent (the box, captain play, partnership), the form asks who played each
// table, and the server checks it when the hand is sent.
(function () {
  "use strict";
  var root = document.getElementById("offline-queue");
  if (!root) return;
  var form = document.querySelector("form[data-offline-queue]");
  var STORE = "tablestakes.queue.v1." + root.dataset.game;
  var SEND_URL = root.dataset.sendUrl;
  var GAME_URL = root.dataset.gameUrl;
  var PLAYERS = JSON.parse(root.dataset.players || "[]");
  var ROLES_VARY = root.dataset.rolesVary === "1";
  var SERVER_NEXT = parseInt(root.dataset.next || "0", 10);  // the first hand not on the page
  var STOPPED = { refused: 1, stale: 1, over: 1, login: 1 };
  var TIMEOUT = 15000;
  var memory = null;  // when the browser keeps no storage (private mode full)
  var sending = false;
  var retryTimer = null;
  var retries = 0;
  var landed = 0;
  var editing = null;  // key of the stopped hand now in the form
  var update = null;  // the last answer that carries the page's changed parts

  // -- the queue, kept in the browser ---------------------------------------------------------
  function load() {
    if (memory) return memory;
    try { return JSON.parse(localStorage.getItem(STORE) || "[]"); } catch (e) { return []; }
  }
  function save(queue) {
    try {
      if (queue.length) localStorage.setItem(STORE, JSON.stringify(queue));
      else localStorage.removeItem(STORE);
      memory = null;
    } catch (e) {
      memory = queue;
    }
  }

  function uuid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var b = new Uint8Array(16);
    crypto.getRandomValues(b);
    b[6] = (b[6] & 15) | 64;
    b[8] = (b[8] & 63) | 128;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); });
    return h.slice(0, 4).join("") + "-" + h.slice(4, 6).join("") + "-" + h.slice(6, 8).join("") +
      "-" + h.slice(8, 10).join("") + "-" + h.slice(10).join("");
  }

  function csrfToken() {
    var m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (m) return decodeURIComponent(m[1]);
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function connection(online) {
    document.dispatchEvent(new CustomEvent("tablestakes:connection", { detail: { online: online } }));
  }

  // -- the form ---------------------------------------------------------------------------------
  function field(name) { return form && form.querySelector("[name='" + name + "']"); }

  function fields() {
    var out = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken" && typeof value === "string") out.push([name, value]);
    });
    return out;
  }

  function labelOf(input) {
    var box = input.closest(".field");
    var label = box && box.querySelector(".label");
    return label ? label.textContent.trim() : input.name;
  }

  // A hand in words, from the form: "Ann · Knock · Ann's count 5 · Bob's count 20".
  function describe() {
    var parts = [];
    var drawn = {};
    form.querySelectorAll("input[type=radio]:checked").forEach(function (radio) {
      var m = radio.name.match(/^(t\d+)_knocker$/);
      if (m && radio.value === "-draw-") drawn[m[1]] = true;
    });
    form.querySelectorAll(".field").forEach(function (box) {
      var radio = box.querySelector("input[type=radio]:checked");
      if (radio) {
        var m = radio.name.match(/^(t\d+)_kind$/);
        if (m && drawn[m[1]]) return;
        var span = radio.parentNode.querySelector("span");
        parts.push(span ? span.textContent.trim() : radio.value);
        return;
      }
      var input = box.querySelector("input:not([type=radio]):not([type=hidden]), textarea");
      if (input && input.value.trim() && !/_p\d$/.test(input.name)) {
        parts.push(labelOf(input).replace(/\s*[:?]$/, "") + " " + input.value.trim());
      }
    });
    return parts.join(" · ");
  }

  function firstChoiceMissing() {
    var names = {};
    form.querySelectorAll("input[type=radio]").forEach(function (radio) {
      if (/^(t\d+_knocker|went_out)$/.test(radio.name)) names[radio.name] = true;
    });
    var errors = {};
    Object.keys(names).forEach(function (name) {
      if (!form.querySelector("input[name='" + name + "']:checked")) {
        errors[name] = [name === "went_out" ? "Who went out? Tap a name, or Nobody."
          : "Who knocked? Tap a name, or Draw."];
      }
    });
    return Object.keys(errors).length ? errors : null;
  }

  function clearErrors() {
    refusedAs = null;
    if (!form) return;
    form.querySelectorAll(".field .error, .form-error, #save-error").forEach(function (el) {
      el.remove();
    });
    form.querySelectorAll(".field.has-error").forEach(function (el) {
      el.classList.remove("has-error");
    });
  }

  // The reasons at their fields and next to Save, as the server draws them
  // (templates/ledger/_field.html, _entry.html); the first marked field in view, focused.
  function showErrors(errors, problems) {
    clearErrors();
    var lines = [];
    var first = null;
    Object.keys(errors).forEach(function (name) {
      var input = name === "__all__" ? null : field(name);
      var box = input && input.closest(".field");
      lines = lines.concat(errors[name]);
      if (!box) return;
      box.classList.add("has-error");
      var p = document.createElement("p");
      p.className = "error";
      p.id = "id_" + name + "_error";
      p.setAttribute("role", "alert");
      p.textContent = errors[name].join(" ");
      box.insertBefore(p, box.querySelector(".help"));
      var details = box.closest("details");
      if (details) details.open = true;
      first = first || box;
    });
    var reason = document.createElement("div");
    reason.className = "save-error";
    reason.id = "save-error";
    reason.setAttribute("role", "alert");
    (problems && problems.length ? problems : lines).forEach(function (text) {
      var p = document.createElement("p");
      p.textContent = text;
      reason.appendChild(p);
    });
    // the reasons stand until the hand is changed: then the preview speaks again (app.css
    // hides #save-error under a preview); one still on its way for this hand is dropped
    var preview = form.querySelector("#hand-preview");
    if (preview) preview.textContent = "";
    refusedAs = JSON.stringify(fields());
    var button = form.querySelector(".savebar button[type=submit], button[type=submit]");
    if (button) button.parentNode.insertBefore(reason, button);
    else form.appendChild(reason);
    if (!first) { reason.scrollIntoView({ block: "nearest" }); return; }
    first.scrollIntoView({ block: "center" });
    var input = first.querySelector("input:not([type=hidden]):not([type=radio]), select, textarea") ||
      first.querySelector("input[type=radio]");
    if (input) input.focus({ preventScroll: true });
  }

  var refusedAs = null;  // the form's fields as refused
  document.addEventListener("htmx:beforeSwap", function (event) {
    var preview = form && form.querySelector("#hand-preview");
    if (!refusedAs || !preview || event.detail.target !== preview) return;
    if (JSON.stringify(fields()) === refusedAs) event.detail.shouldSwap = false;
    else refusedAs = null;
  });

  // -- who played (offline, where the hands before decide it) ---------------------------------
  var original = [];  // each table's players as the page was drawn
  function tables() {
    return form ? Array.prototype.slice.call(form.querySelectorAll("fieldset.duel"))
      .filter(function (fs) { return fs.querySelector("input[name$=_knocker]"); }) : [];
  }
  function pairOf(fs) {
    return Array.prototype.slice.call(fs.querySelectorAll("input[name$=_knocker]"))
      .map(function (r) { return r.value; }).filter(function (v) { return v !== "-draw-"; });
  }
  function rename(fs, i, pair) {
    var old = pairOf(fs);
    var radios = Array.prototype.filter.call(fs.querySelectorAll("input[name$=_knocker]"),
      function (r) { return r.value !== "-draw-"; });
    radios.forEach(function (radio, pos) {
      radio.value = pair[pos];
      var span = radio.parentNode.querySelector("span");
      if (span) span.textContent = pair[pos];
    });
    [["c0", "c1"], ["cards0", "cards1"]].forEach(function (names) {
      names.forEach(function (suffix, pos) {
        var label = fs.querySelector("label[for='id_t" + i + "_" + suffix + "']");
        if (label && old[pos]) {
          label.textContent = label.textContent.replace(old[pos] + "'s", pair[pos] + "'s");
        }
      });
    });
    fs.querySelectorAll(".picker-tab .picker-name").forEach(function (el, pos) {
      el.textContent = pair[pos];
    });
    var legend = fs.querySelector("legend");
    if (legend) legend.textContent = legend.textContent.replace(/: .*$/, ": " + pair[0] + " v " + pair[1]);
  }
  function pickers(show, picked) {
    tables().forEach(function (fs, idx) {
      var i = idx + 1;
      if (!original[idx]) original[idx] = pairOf(fs);
      var box = fs.querySelector(".who-played");
      if (!show) {
        if (box) { box.remove(); rename(fs, i, original[idx]); }
        return;
      }
      var pair = (picked && picked[idx]) || pairOf(fs);
      if (!box) {
        box = document.createElement("div");
        box.className = "field who-played";
        var label = document.createElement("span");
        label.className = "label";
        label.textContent = "Who played?";
        var row = document.createElement("div");
        row.className = "pick-row";
        [0, 1].forEach(function (pos) {
          var select = document.createElement("select");
          select.name = "t" + i + "_p" + pos;
          select.setAttribute("aria-label", pos ? "and" : "Who played");
          PLAYERS.forEach(function (name) {
            var option = document.createElement("option");
            option.value = name;
            option.textContent = name;
            select.appendChild(option);
          });
          row.appendChild(select);
          if (!pos) {
            var v = document.createElement("span");
            v.className = "v";
            v.textContent = "v";
            row.appendChild(v);
          }
        });
        var help = document.createElement("p");
        help.className = "help";
        help.textContent = "The hands before this one are not sent yet, so who plays is " +
          "not known here: pick who played. Roles are checked when the hands are sent.";
        box.appendChild(label);
        box.appendChild(row);
        box.appendChild(help);
        var legend = fs.querySelector("legend");
        fs.insertBefore(box, legend ? legend.nextSibling : fs.firstChild);
        box.addEventListener("change", function () {
          var a = box.querySelector("select[name$=_p0]").value;
          var b = box.querySelector("select[name$=_p1]").value;
          rename(fs, i, [a, b]);
        });
      }
      box.querySelector("select[name$=_p0]").value = pair[0];
      box.querySelector("select[name$=_p1]").value = pair[1];
      rename(fs, i, pair);
    });
  }
  function pickedOf(item) {
    var out = [];
    item.fields.forEach(function (kv) {
      var m = kv[0].match(/^t(\d+)_p(\d)$/);
      if (m) {
        out[m[1] - 1] = out[m[1] - 1] || [];
        out[m[1] - 1][m[2]] = kv[1];
      }
    });
    return out.length ? out : null;
  }

  // A hand typed with "who played" picked, for the form as the server drew it now (who
  // really plays each table): each player's count and cards at that player's place; what
  // was typed for a player who does not play here is left out.
  function toTheseTables(item) {
    var picked = pickedOf(item);
    if (!picked) return item.fields;
    var real = tables().map(pairOf);
    return item.fields.map(function (kv) {
      var m = kv[0].match(/^t(\d+)_(c|cards)([01])$/);
      if (!m || !picked[m[1] - 1] || !real[m[1] - 1]) return kv;
      var name = picked[m[1] - 1][m[3]];
      var at = real[m[1] - 1].indexOf(name);
      return at < 0 ? null : ["t" + m[1] + "_" + m[2] + at, kv[1]];
    }).filter(Boolean);
  }

  // -- the form for the next hand, or for a stopped one ----------------------------------------
  function setNumber(number, key) {
    field("number").value = String(number);
    field("key").value = key;
    var button = form.querySelector(".savebar button[type=submit], button[type=submit]");
    if (button) button.textContent = button.textContent.replace(/\d+\s*$/, String(number));
    var title = document.querySelector("#next .next-title");
    if (title) title.textContent = title.textContent.replace(/\d+/, String(number));
  }

  function blank() {
    form.reset();
    clearErrors();
    form.querySelectorAll("details.cards").forEach(function (d) { d.open = false; });
  }

  // The number of the hand after the last one in the list.
  function numberAfter(queue) {
    if (!queue.length) return SERVER_NEXT;
    var first = queue[0].state === "stale" && queue[0].next ? queue[0].next : queue[0].number;
    return first + queue.length;
  }
  // The form's number after the list changed, keeping what is typed in it.
  function formNumber() {
    if (!form || editing) return;
    setNumber(numberAfter(load()), field("key").value);
  }

  // The form for the hand after the last one queued (roles unknown until they are sent).
  function nextHand() {
    var queue = load();
    editing = null;
    blank();
    var ahead = queue.length > 0;
    var number = numberAfter(queue);
    setNumber(number, ahead ? uuid() : field("key").defaultValue || uuid());
    pickers(ahead && ROLES_VARY, null);
    var next = document.getElementById("next");
    if (next) next.classList.toggle("next-unknown", ahead);
  }

  // A stopped hand back in the form, with the server's reasons at their fields.
  function edit(item) {
    editing = item.key;
    blank();
    var number = item.number;
    setNumber(number, item.key);
    var picking = ROLES_VARY && number > SERVER_NEXT;
    pickers(picking, pickedOf(item));
    (picking ? item.fields : toTheseTables(item)).forEach(function (kv) {
      var name = kv[0];
      var value = kv[1];
      if (name === "key" || name === "number" || /_p\d$/.test(name)) return;
      var els = form.querySelectorAll("[name='" + name + "']");
      els.forEach(function (el) {
        if (el.type === "radio" || el.type === "checkbox") el.checked = el.value === value;
        else el.value = value;
      });
      if (/_cards\d$/.test(name) && value) {
        var details = els[0] && els[0].closest("details");
        if (details) details.open = true;
      }
    });
    form.querySelectorAll("textarea.cards-text").forEach(function (el) {
      if (el.value) el.dispatchEvent(new Event("input", { bubbles: true }));
    });
    if (item.errors) showErrors(item.errors, item.problems);
    var next = document.getElementById("next");
    if (next) next.classList.toggle("next-unknown", number > SERVER_NEXT);
  }

  // -- the list of hands not sent yet, just above the sheet ------------------------------------
  var STATE_WORDS = {
    pending: "not sent yet", sending: "sending…", refused: "refused: fix it above",
    stale: "kept: not sent", over: "kept: not sent", login: "kept: not sent",
  };
  function scoreNote(count) {
    // the totals on the page are the server's: say that the hands in the list are not in them
    var board = document.querySelector(".scoreboard");
    if (!board) return;
    var note = document.getElementById("score-pending");
    if (!count) { if (note) note.remove(); return; }
    if (!note) {
      note = document.createElement("p");
      note.id = "score-pending";
      note.className = "score-pending";
      board.parentNode.insertBefore(note, board.nextSibling);
    }
    note.textContent = "Without the " + (count === 1 ? "hand" : count + " hands") +
      " not sent yet (below).";
  }

  function render() {
    var queue = load();
    root.hidden = queue.length === 0;
    root.textContent = "";
    scoreNote(queue.length);
    if (!queue.length) return;
    var head = document.createElement("div");
    head.className = "card-head title-row";
    var h2 = document.createElement("h2");
    h2.textContent = "Not sent yet";
    head.appendChild(h2);
    var chip = document.createElement("span");
    chip.className = "chip chip-queue";
    chip.textContent = queue.length + (queue.length === 1 ? " hand" : " hands");
    head.appendChild(chip);
    root.appendChild(head);
    var stopped = queue[0] && STOPPED[queue[0].state];
    var note = document.createElement("p");
    note.className = "help pad";
    var advice = {
      refused: "Fix it in the form above and save it again, or discard it.",
      stale: "Check it against the table: send it as the next hand, or discard it if it is " +
        "the hand the other phone recorded.",
      over: "Discard it, or start a new game and enter it there.",
      login: "Reload the page (log in again if asked); nothing is lost.",
    };
    note.textContent = stopped
      ? "Sending stopped at hand " + queue[0].number + ". " + (advice[queue[0].state] || "") +
        (queue.length > 1 ? " The hands after it wait, kept on this phone." : "")
      : navigator.onLine ? "Sending, in order…"
        : "Kept on this phone; sent in order when the connection returns.";
    root.appendChild(note);
    var list = document.createElement("ol");
    list.className = "queue-list";
    queue.forEach(function (item, index) {
      var li = document.createElement("li");
      var state = index > 0 && stopped ? "waiting" : item.state;
      li.className = "queue-item queue-" + state;
      li.dataset.number = item.number;
      li.dataset.state = state;
      var title = document.createElement("div");
      title.className = "queue-title";
      var b = document.createElement("b");
      b.textContent = "Hand " + item.number;
      title.appendChild(b);
      var status = document.createElement("span");
      status.className = "queue-state";
      status.textContent = state === "waiting" ? "waiting" : STATE_WORDS[item.state] || item.state;
      title.appendChild(status);
      li.appendChild(title);
      var what = document.createElement("p");
      what.className = "queue-what";
      what.textContent = item.summary;
      li.appendChild(what);
      if (item.message && index === 0) {
        var why = document.createElement("p");
        why.className = "queue-why";
        why.setAttribute("role", item.state in STOPPED ? "alert" : "status");
        why.textContent = item.message;
        li.appendChild(why);
      }
      if (index === 0) {
        var actions = document.createElement("div");
        actions.className = "btn-row";
        if (item.state === "stale" && item.next) {
          actions.appendChild(button("Send it as hand " + item.next, "renumber"));
        }
        if (item.state === "pending" && navigator.onLine) {
          actions.appendChild(button("Send now", "send"));
        }
        if (item.state === "login") actions.appendChild(button("Reload the page", "reload"));
        if (item.state in STOPPED) actions.appendChild(button("Discard this hand", "discard"));
        if (actions.childNodes.length) li.appendChild(actions);
      }
      list.appendChild(li);
    });
    root.appendChild(list);
  }
  function button(text, action) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "btn btn-small" + (action === "discard" ? " btn-danger" : "");
    b.dataset.queueAction = action;
    b.textContent = text;
    return b;
  }

  root.addEventListener("click", function (event) {
    var b = event.target.closest("[data-queue-action]");
    if (!b) return;
    var queue = load();
    var head = queue[0];
    if (!head) return;
    var action = b.dataset.queueAction;
    if (action === "discard") {
      if (!window.confirm("Discard hand " + head.number + " (" + head.summary + ")? It was never recorded.")) return;
      queue.shift();
      var shift = head.number;  // the hands after it move up one number
      queue.forEach(function (item, i) { item.number = shift + i; setField(item, "number", item.number); });
      save(queue);
      if (editing === head.key) nextHand();
      else formNumber();
    } else if (action === "renumber") {
      var delta = head.next - head.number;
      queue.forEach(function (item) {
        item.number += delta;
        setField(item, "number", item.number);
        if (item.state in STOPPED) { item.state = "pending"; item.message = ""; }
      });
      save(queue);
      formNumber();
    } else if (action === "reload") {
      window.location.assign(GAME_URL);
      return;
    }
    retries = 0;
    render();
    flush();
  });

  function setField(item, name, value) {
    item.fields.forEach(function (kv) { if (kv[0] === name) kv[1] = String(value); });
  }

  // -- sending, in order ------------------------------------------------------------------------
  function later() {
    if (retryTimer) return;
    var wait = Math.min(60, Math.pow(2, retries)) * 1000;
    retries += 1;
    retryTimer = setTimeout(function () { retryTimer = null; flush(); }, wait);
  }

  function post(item, parts) {
    var body = new FormData();
    item.fields.forEach(function (kv) { body.append(kv[0], kv[1]); });
    if (parts) body.append("parts", String(parts));
    body.append("csrfmiddlewaretoken", csrfToken());
    var controller = window.AbortController ? new AbortController() : null;
    var timer = controller && setTimeout(function () { controller.abort(); }, TIMEOUT);
    return fetch(SEND_URL, {
      method: "POST", body: body, credentials: "same-origin", redirect: "manual",
      headers: { "Accept": "application/json", "X-CSRFToken": csrfToken() },
      signal: controller ? controller.signal : undefined,
    }).then(function (response) {
      if (timer) clearTimeout(timer);
      if (response.type === "opaqueredirect" || response.status === 403) {
        return { status: "login", message: "The server asks to log in again (or the page " +
          "is out of date): the hands are kept. Reload the page, log in if asked, and they are sent." };
      }
      if (response.status === 404) {
        return { status: "login", message: "This game is not found with the account logged " +
          "in now: log in as the scorekeeper who entered these hands; they are kept." };
      }
      if (response.status >= 500) return { status: "retry", message: "The server had a problem (" + response.status + ")." };
      return response.json().catch(function () {
        return { status: "retry", message: "The server's answer was cut off." };
      });
    }, function (error) {
      if (timer) clearTimeout(timer);
      return { status: "retry", offline: true,
        message: error && error.name === "AbortError" ? "No answer in time." : "No connection." };
    });
  }

  function flush() {
    if (sending) return;
    var queue = load();
    var head = queue[0];
    if (!head || head.state in STOPPED) { render(); finish(); return; }
    if (!navigator.onLine) { render(); return; }
    sending = true;
    head.state = "sending";
    save(queue);
    render();
    // the last hand of the list brings back what the page must show after it
    var parts = queue.length === 1 && form && window.htmx ? SERVER_NEXT : 0;
    post(head, parts).then(function (answer) {
      sending = false;
      queue = load();
      if (!queue[0] || queue[0].key !== head.key) { flush(); return; }
      var item = queue[0];
      if (answer.status === "recorded") {
        queue.shift();
        save(queue);
        landed += 1;
        update = answer.parts || answer.page ? answer : null;
        retries = 0;
        connection(true);
        flush();
        return;
      }
      item.message = answer.message || "";
      if (answer.status === "retry") {
        item.state = "pending";
        item.message = "Not sent yet: " + answer.message + " Trying again by itself.";
        save(queue);
        render();
        if (answer.offline) connection(false);
        later();
        return;
      }
      item.state = answer.status in STOPPED ? answer.status : "refused";
      item.errors = answer.errors || null;
      item.problems = answer.problems || null;
      item.next = answer.next || null;
      save(queue);
      if (item.state === "stale" || item.state === "over") {
        // the page is out of date (another phone recorded hands, or the game ended): show
        // the game as it is now; the hand waits in the list for the scorekeeper's word
        window.location.replace(GAME_URL);
        return;
      }
      finish();
    });
  }

  // The queue is empty or stopped: show the page as the server has it now (the hands that
  // landed, scored): in place when the last answer brought the parts, else by a reload; or
  // the stopped hand in the form when nothing landed since.
  function finish() {
    var queue = load();
    if (landed) {
      if (!queue.length && update && inPlace(update)) return;
      window.location.replace(GAME_URL);
      return;
    }
    render();
    var head = queue[0];
    if (form && head && head.state === "refused" && head.number === SERVER_NEXT && editing !== head.key) {
      edit(head);
    }
  }

  // The copy of this page the phone keeps for opening it without a connection (sw.js keeps
  // the pages it loads): a page updated in place is newer than it, so a few seconds after
  // the last save the kept copy is replaced by the page as the server draws it now; else a
  // phone reopened offline would number its hands from an old page.
  var keepTimer = null;
  function keepPage() {
    if (!window.caches || !navigator.serviceWorker || !navigator.serviceWorker.controller) return;
    clearTimeout(keepTimer);
    keepTimer = setTimeout(function () {
      caches.keys().then(function (keys) {
        var name = keys.filter(function (key) { return key.indexOf("ts-pages-") === 0; })[0];
        if (!name) return;
        return fetch(GAME_URL + "?kept=1", { credentials: "same-origin", redirect: "manual" })
          .then(function (response) {
            if (!response.ok || response.type !== "basic") return;
            return caches.open(name).then(function (cache) {
              return cache.put(new URL(GAME_URL, location.href).pathname, response);
            });
          });
      }).catch(function () {});
    }, 3000);
  }

  // The page brought up to date with what the server sent after the last hand (see
  // ledger/views/queue.py), by htmx (its oob swaps, and its attributes on the new form).
  function inPlace(answer) {
    var entry = document.getElementById("entry");
    var main = document.querySelector("main.page");
    if (!window.htmx || !htmx.swap || !(answer.page ? main : entry)) return false;
    landed = 0;
    update = null;
    editing = null;
    keepPage();
    if (answer.page) {
      // the game is over: the page as a reload draws it (its scripts already run here)
      var banner = document.getElementById("offline-banner");
      htmx.swap(main, answer.page, { swapStyle: "innerHTML" },
        { select: "main.page > :not(script)" });
      var fresh = document.getElementById("offline-queue");
      if (fresh && fresh !== root) fresh.replaceWith(root);
      if (banner) main.insertBefore(banner, main.firstChild);
      form = document.querySelector("form[data-offline-queue]");
      render();
      if (document.activeElement && document.activeElement.blur) document.activeElement.blur();
      window.scrollTo(0, 0);
      return true;
    }
    // hands kept offline, sent now, while the next one is being typed: the new form is for
    // that same hand, and what is typed stays (where the players of each table are fixed)
    var typed = !ROLES_VARY && form && field("number").value === String(answer.next)
      ? fields() : null;
    var focused = typed && document.activeElement && form.contains(document.activeElement)
      ? document.activeElement.name : null;
    htmx.swap(entry, answer.parts, { swapStyle: "outerHTML" });
    SERVER_NEXT = answer.next || SERVER_NEXT;
    root.dataset.next = String(SERVER_NEXT);
    form = document.querySelector("form[data-offline-queue]");
    original = [];
    render();
    if (typed && form) {
      typed.forEach(function (kv) {
        if (kv[0] === "key" || kv[0] === "number") return;
        form.querySelectorAll("[name='" + kv[0] + "']").forEach(function (el) {
          if (el.type === "radio" || el.type === "checkbox") el.checked = el.value === kv[1];
          else el.value = kv[1];
        });
      });
      var again = focused && field(focused);
      if (again && again.focus) again.focus({ preventScroll: true });
      return true;
    }
    // the next hand starts at the top of its card (the saved hand said there), keypad down
    if (document.activeElement && document.activeElement.blur) document.activeElement.blur();
    entry = document.getElementById("entry");
    if (entry) entry.scrollIntoView({ block: "start" });
    return true;
  }

  // -- saving a hand ----------------------------------------------------------------------------
  // on the document, before htmx's own handler on the form (the capture phase): the form is
  // replaced by a new one after each hand saved in place
  document.addEventListener("submit", function (event) {
    if (!form || event.target !== form) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    var missing = firstChoiceMissing();
    if (missing) { showErrors(missing); return; }
    var queue = load();
    // a key of its own for every hand saved: a page shown from the phone's cache (or a
    // hand fixed after a refusal) can never pass off a new hand as one already recorded
    var item = {
      key: uuid(), number: parseInt(field("number").value, 10),
      fields: fields(), summary: describe(), state: "pending", at: Date.now(),
    };
    setField(item, "key", item.key);
    if (editing && queue[0] && queue[0].key === editing) {
      queue[0] = item;  // the stopped hand, fixed: first again, the others after it
      queue.forEach(function (it) { if (it.state in STOPPED) it.state = "pending"; });
    } else {
      queue.push(item);
    }
    editing = null;
    save(queue);
    retries = 0;
    // ask the browser not to clear this site's storage when the phone runs short of room
    if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(function () {});
    if (navigator.onLine) {
      var button = form.querySelector("button[type=submit]");
      if (button) { button.disabled = true; button.dataset.label = button.textContent; button.textContent = "Saving…"; }
      clearErrors();
      render();
      flushThen(function () {
        if (button) { button.disabled = false; button.textContent = button.dataset.label; }
      });
    } else {
      render();
      nextHand();
      var top = document.getElementById("next") || form;
      top.scrollIntoView({ block: "start" });
    }
  }, true);

  // Send now; if the hand just saved was not sent (no connection after all), go on to the
  // next hand in the form; if it was refused, leave it in the form with the reasons.
  function flushThen(done) {
    var before = load().length;
    var check = setInterval(function () {
      if (sending) return;
      clearInterval(check);
      done();
      var queue = load();
      var head = queue[0];
      if (!queue.length || landed) return;
      if (head && head.state === "refused" && queue.length === 1 && before === 1) {
        if (editing !== head.key) {  // not already back in the form (finish)
          editing = head.key;
          if (head.errors) showErrors(head.errors, head.problems);
        }
        render();
        return;
      }
      if (head && head.state in STOPPED) { finish(); return; }
      nextHand();
    }, 50);
    flush();
  }

  function now() { retries = 0; clearTimeout(retryTimer); retryTimer = null; flush(); }
  window.addEventListener("online", now);
  window.addEventListener("offline", render);
  // a phone puts a page in the background and stops its timers: try again on coming back
  document.addEventListener("visibilitychange", function () { if (!document.hidden) now(); });
  window.addEventListener("pageshow", function (event) { if (event.persisted) { render(); now(); } });

  // -- on load ----------------------------------------------------------------------------------
  var queue = load();
  queue.forEach(function (item) { if (item.state === "sending") item.state = "pending"; });
  save(queue);
  if (queue.length && form) {
    var head = queue[0];
    if (head.state === "refused" && head.number === SERVER_NEXT) edit(head);
    else nextHand();
  }
  render();
  flush();
})();
