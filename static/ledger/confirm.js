// A link with data-dialog="ID" opens <dialog id="ID"> (its question and the real form)
// instead of going to the confirmation page; without JavaScript, or without <dialog>, the
// link goes to that page, which asks the same question. Closing: the dialog's "Keep"
// button (formmethod="dialog"), Escape, or a tap outside the box.
document.addEventListener("click", function (event) {
  var link = event.target.closest && event.target.closest("a[data-dialog]");
  if (link) {
    var dialog = document.getElementById(link.dataset.dialog);
    if (!dialog || typeof dialog.showModal !== "function") return;
    event.preventDefault();
    dialog.showModal();
    // the focus on the question itself (the dialog, named by its title): a screen reader
    // reads it, the next Tab reaches its first field, and no keypad jumps up over it (the
    // browser would focus the text field). Closed, the focus goes back to the link.
    dialog.focus();
    if (!dialog.dataset.returns) {
      dialog.dataset.returns = "1";
      dialog.addEventListener("close", function () {
        var opener = dialog.opener;
        var active = document.activeElement;
        // (the focus may still be on the closed dialog itself, until the browser fixes it)
        if (!opener || !opener.isConnected ||
            (active && active !== document.body && !dialog.contains(active))) return;
        // a link in a menu the tap closed (Undo in the Tools menu): it cannot take the
        // focus, the menu's button that opened it does
        var menu = opener.closest("details:not([open])");
        var target = menu ? menu.querySelector("summary") : opener;
        if (target) target.focus();
      });
    }
    dialog.opener = link;
    return;
  }
  if (event.target.tagName === "DIALOG" && event.target.open) {
    var box = event.target.getBoundingClientRect();
    if (event.clientX < box.left || event.clientX > box.right ||
        event.clientY < box.top || event.clientY > box.bottom) event.target.close();
  }
});
// A share link's box: one tap selects the whole address, ready to copy.
document.addEventListener("focusin", function (event) {
  if (event.target.matches && event.target.matches("input.copy")) event.target.select();
});
// The game's tools menu (templates/ledger/_tools.html, a <details>): a tap outside it, on one
// of its links, or Escape closes it; without this script its button opens and closes it.
(function () {
  var menu = document.getElementById("tools");
  if (!menu) return;
  document.addEventListener("click", function (event) {
    if (!menu.open) return;
    if (!menu.contains(event.target)) { menu.open = false; return; }
    if (event.target.closest("a.tools-item")) menu.open = false;
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && menu.open && !document.querySelector("dialog[open]")) {
      menu.open = false;
      menu.querySelector("summary").focus();
    }
  });
})();
