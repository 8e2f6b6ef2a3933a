"""Moving about the room page as a person does."""


def show_tab(page, name: str) -> None:
    """Bring the side panel's tab `name` (roll, log, chat, sheet, gm) into
    sight: a click when it is not the tab shown, or the panel is folded (a
    phone's bottom sheet starts folded)."""
    tab = page.locator(f"#tab-{name}")
    folded = page.get_attribute("#room", "data-panel") == "closed"
    if folded or tab.get_attribute("aria-selected") != "true":
        tab.click()
    page.wait_for_selector(f"#panel-{name}:not([hidden])")
