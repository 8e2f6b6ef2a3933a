// Tabs (WAI-ARIA): one panel shown at a time. Click or Enter picks a tab;
// Left/Right/Home/End move between tabs, and only the chosen tab is in the
// Tab order, so the keyboard goes from the tab straight into its panel.

export function tabs(tablist, onShow) {
  const list = [...tablist.querySelectorAll('[role="tab"]')];
  const show = (tab, focus = false) => {
    for (const t of list) {
      const on = t === tab;
      t.setAttribute("aria-selected", String(on));
      t.tabIndex = on ? 0 : -1;
      document.getElementById(t.getAttribute("aria-controls")).hidden = !on;
    }
    if (focus) tab.focus();
    onShow?.(tab.getAttribute("aria-controls"));
  };
  for (const tab of list) {
    tab.addEventListener("click", () => show(tab));
    tab.addEventListener("keydown", (e) => {
      const at = list.indexOf(tab);
      const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: list.length - 1 }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      show(list[(to + list.length) % list.length], true);
    });
  }
  return { show: (id) => show(list.find((t) => t.getAttribute("aria-controls") === id)) };
}
