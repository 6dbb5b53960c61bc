// The browser's time zone, proposed for a new table (issue 22): fills the hidden field
// marked data-browser-time-zone of the "New table" form with the zone this device keeps
// (an IANA name such as Europe/Berlin), and offers it under the table's time-zone field
// (data-browser-time-zone-hint) when it differs, and first in that field's list of zones
// (its <datalist>: the server's zones, which a phone's keyboard searches as one types). No inline script: the content security
// policy allows only the site's own files. Without it the server keeps UTC, editable later.
// asked only where a form wants it: the browser's time-zone data is slow to load on a
// phone, and every page loads this script
const wanted = document.querySelector(
  "input[data-browser-time-zone], input[data-browser-time-zone-hint]");
const zone = !wanted ? "" : (() => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (error) {
    return "";
  }
})();

if (zone) {
  for (const input of document.querySelectorAll("input[data-browser-time-zone]")) {
    if (!input.value) input.value = zone;
  }
  for (const input of document.querySelectorAll("input[data-browser-time-zone-hint]")) {
    // the device's zone first in the field's list of zones (a <datalist>)
    const list = input.list;
    if (list) {
      const mine = Array.from(list.options).find((option) => option.value === zone)
        || Object.assign(document.createElement("option"), {value: zone});
      list.insertBefore(mine, list.firstChild);
    }
    if (input.value === zone) continue;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "btn btn-quiet btn-small";
    button.textContent = (input.dataset.browserTimeZoneLabel || "Use this device's zone: ")
      + zone;
    button.addEventListener("click", () => {
      input.value = zone;
      button.remove();
    });
    input.insertAdjacentElement("afterend", button);
  }
}
