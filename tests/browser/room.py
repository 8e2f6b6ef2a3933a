"""Moving about the room page as a person does: logging in and opening it,
its tabs, its squares, a finger on its map."""

import re


def log_in_by_form(page, url, username, password):
    """Type the log-in form and land on the campaigns page, as a person does."""
    page.goto(url + "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("main button[type=submit]")
    page.wait_for_url(url + "/")


def log_in(page, url, username, password):
    """Log `page`'s browser context in by sending the log-in form's POST from
    it (its CSRF token, its session cookie kept by the context): the page
    has not moved. Drawing the log-in and campaigns pages for every page of
    every test cost the browser suite a page load and more each; the form
    itself is typed in test_room.py and checked in test_accessibility.py."""
    request = page.context.request
    form = request.get(url + "/accounts/login/")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.text())
    assert token, f"no CSRF token in the log-in page ({form.status})"
    answer = request.post(
        url + "/accounts/login/",
        form={"csrfmiddlewaretoken": token[1], "username": username, "password": password},
        headers={"Referer": url + "/accounts/login/"},
        max_redirects=0,
    )
    assert answer.status == 302, f"{username} was not logged in ({answer.status})"


def open_room(browser, server, campaign_id, who, viewport, *, touch=False, accept=False):
    """A page of its own logged in as `who` in the room, its socket open;
    its `errors` collect the page's uncaught errors. With `accept`, the
    page's confirmations ("Remove ... from the map?") are answered yes."""
    context = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    if accept:
        page.on("dialog", lambda dialog: dialog.accept())
    log_in(page, server["url"], who, server["password"])
    page.goto(f"{server['url']}/campaigns/{campaign_id}/room/")
    page.wait_for_selector("#conn[data-state=open]")
    return page


def show_tab(page, name: str) -> None:
    """Bring the side panel's tab `name` (roll, log, chat, sheet, gm) into
    sight: a click when it is not the tab shown, or the panel is folded (a
    phone's bottom sheet starts folded)."""
    tab = page.locator(f"#tab-{name}")
    folded = page.get_attribute("#room", "data-panel") == "closed"
    if folded or tab.get_attribute("aria-selected") != "true":
        tab.click()
    page.wait_for_selector(f"#panel-{name}:not([hidden])")


def square_centre(page, x, y):
    """Client coordinates of the middle of square (x, y) on that page's map."""
    return page.evaluate(
        """([x, y]) => {
            const b = window.d6room.board;
            const r = b.view.screenBox();
            return [r.left + b.view.tx + (x + 0.5) * b.view.scale,
                    r.top + b.view.ty + (y + 0.5) * b.view.scale];
        }""",
        [x, y],
    )


def touch(page, kind, points):
    """A raw touch event, as a finger makes it (Chromium's DevTools input,
    through the page's `cdp` session)."""
    page.cdp.send(
        "Input.dispatchTouchEvent",
        {"type": kind, "touchPoints": [{"x": x, "y": y} for x, y in points]},
    )


def finger_drag(page, start, end, steps=8):
    """One finger down at `start`, moved to `end` in `steps`, lifted."""
    touch(page, "touchStart", [start])
    for i in range(1, steps + 1):
        at = (
            start[0] + (end[0] - start[0]) * i / steps,
            start[1] + (end[1] - start[1]) * i / steps,
        )
        touch(page, "touchMove", [at])
    touch(page, "touchEnd", [])
