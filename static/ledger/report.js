// A table's report page (templates/ledger/report.html, ledger/views/report.py). The form
// works without this script (a plain POST and a redirect); with it, a CAP-IT phone
// remembers who holds it, and the page moves on by itself when the scorekeeper saves the
// hand (the live part, polled by htmx, shows the next hand's number).
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
    const title = live.querySelector(".next-title");
    const shown = title ? (title.textContent.match(/\d+/) || [])[0] : null;
    if (shown && shown !== page.dataset.number && !touched) location.reload();
  });
}
