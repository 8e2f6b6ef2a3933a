// The room's folding menus: on a phone the room bar's links (with the way
// back to the lobby and out) and the map tools past Fit fold behind a
// button each (static/css/room.css shows the button only there). The
// button says whether its menu is open; Escape or a tap outside closes it,
// and so does a button or link chosen in it. At a desk the menus are
// always open and their buttons hidden, so nothing here changes a thing.

export function foldable(toggle) {
  const menu = document.getElementById(toggle.getAttribute("aria-controls"));
  const setOpen = (open) => {
    toggle.setAttribute("aria-expanded", String(open));
    menu.classList.toggle("open", open);
  };
  toggle.addEventListener("click", () => setOpen(toggle.getAttribute("aria-expanded") !== "true"));
  menu.addEventListener("click", (e) => {
    if (e.target.closest("button, a")) setOpen(false);
  });
  menu.addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    setOpen(false);
    toggle.focus();
  });
  document.addEventListener("pointerdown", (e) => {
    if (!menu.contains(e.target) && !toggle.contains(e.target)) setOpen(false);
  });
  return { setOpen };
}
