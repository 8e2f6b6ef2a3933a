"""Token faces in a real browser. The GM's map shows the hidden zombie, a
token with no picture, as its initials on its colour; the player gives
Tenrec a portrait on the character page, and Tenrec's token on the GM's
open map turns into that picture (an SVG <image> clipped to a circle) the
moment it is saved. Screenshots go to tests/artifacts/."""

import pytest

from tests.tabletop.images import photo_with_exif

from .test_room import DESK, PHONE, enter_room, log_in

pytestmark = pytest.mark.browser


def open_page(browser, table, who, viewport):
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    log_in(page, table["url"], who, table["password"])
    return page


@pytest.fixture(scope="module")
def gm(browser, table):
    page = open_page(browser, table, "gm", DESK)
    enter_room(page, table)
    yield page
    page.context.close()


def token(page, token_id):
    return page.locator(f'[data-token-id="{token_id}"]')


def initials_of(page, token_id):
    """The token's initials, printed just after its button."""
    return page.locator(f'[data-print-for="{token_id}"] text.initials')


def test_a_token_without_art_shows_its_initials(gm, table, shot):
    zombie = token(gm, table["zombie_token"])
    zombie.wait_for()
    initials = initials_of(gm, table["zombie_token"])
    assert initials.text_content() == "Zo"
    assert initials.is_visible()
    assert not zombie.locator("image.art").is_visible()
    # Dark green: the initials are written in white, readable on it.
    assert initials.evaluate("e => getComputedStyle(e).fill") == "rgb(255, 255, 255)"
    assert zombie.get_attribute("aria-label").startswith("Zombie, hidden from players, at column 9")
    # The token is a button named by that label, and the only text in it is
    # the name under it: its initials are printed beside it, aria-hidden, so
    # what is read on the button begins its name (WCAG 2.5.3).
    named = gm.get_by_role("button", name="Zombie, hidden from players, at column 9")
    assert named.get_attribute("data-token-id") == str(table["zombie_token"])
    assert zombie.evaluate("g => [...g.querySelectorAll('text')].map(t => t.textContent)") == [
        "Zombie"
    ]
    assert initials.evaluate("e => e.closest('[aria-hidden=true]')?.dataset.printFor") == str(
        table["zombie_token"]
    )
    shot(gm, "40-gm-initials-on-tokens")
    assert gm.errors == []


def test_a_portrait_uploaded_on_the_sheet_appears_on_the_open_map(
    browser, gm, table, tmp_path, shot
):
    tenrec = token(gm, table["tenrec_token"])
    assert initials_of(gm, table["tenrec_token"]).text_content() == "Te"
    picture = tmp_path / "tenrec.jpg"
    picture.write_bytes(photo_with_exif(300, 200))

    player = open_page(browser, table, "player", PHONE)
    try:
        player.goto(f"{table['url']}/campaigns/{table['campaign']}/characters/")
        player.click("text=Tenrec")
        assert player.locator("#portrait-preview").inner_text().startswith("No portrait yet")
        player.set_input_files("#id_portrait", str(picture))
        player.click("main button[type=submit].primary")
        player.wait_for_selector("img#portrait-preview")
        preview = player.get_attribute("img#portrait-preview", "src")
        assert preview.startswith("/media/portraits/") and preview.endswith("-256.webp")
        shot(player, "41-player-portrait-on-the-sheet")

        # The GM's map heard of it through the token's own event.
        gm.wait_for_function(
            "id => document.querySelector(`[data-token-id='${id}'] .face`)"
            "?.classList.contains('has-art')",
            arg=table["tenrec_token"],
        )
        image = tenrec.locator("image.art")
        assert image.is_visible()
        href = image.get_attribute("href")
        assert href.startswith("/media/portraits/") and href.endswith("-128.webp")
        assert image.get_attribute("clip-path") == "url(#token-clip)"
        assert gm.locator("#token-clip circle").count() == 1
        assert not initials_of(gm, table["tenrec_token"]).is_visible()
        # The picture loaded: the browser decoded a real image from the URL.
        loaded = gm.evaluate(
            "href => new Promise(ok => { const i = new Image(); i.onload = () => ok(i.naturalWidth);"
            " i.onerror = () => ok(0); i.src = href; })",
            href,
        )
        assert loaded == 128
        shot(gm, "42-gm-token-shows-the-portrait")

        # The player's own map shows it too.
        enter_room(player, table)
        player.wait_for_selector(f"[data-token-id='{table['tenrec_token']}'] .face.has-art")
        assert player.errors == []
    finally:
        player.context.close()
    assert gm.errors == []


def test_crowded_names_give_way_and_come_back_on_focus(gm, table, shot):
    tenrec, zombie = table["tenrec_token"], table["zombie_token"]
    for who in (tenrec, zombie):
        assert "label-crowded" not in token(gm, who).get_attribute("class")
    # Tenrec steps next to the zombie: two names would overlap under them.
    gm.evaluate(
        "id => { const t = window.d6room.board.tokens.get(id);"
        " return window.d6room.socket.send({type: 'token.move', token: id, x: 8, y: 4,"
        " version: t.version}); }",
        tenrec,
    )
    gm.wait_for_function(
        "id => document.querySelector(`[data-token-id='${id}']`)"
        ".classList.contains('label-crowded')",
        arg=zombie,
    )
    # The lower id keeps its name; the other's is hidden, not removed.
    assert "label-crowded" not in token(gm, tenrec).get_attribute("class")

    def visibility(token_id):
        return (
            token(gm, token_id)
            .locator("text.label")
            .evaluate("e => getComputedStyle(e).visibility")
        )

    assert visibility(tenrec) == "visible" and visibility(zombie) == "hidden"
    assert token(gm, zombie).get_attribute("aria-label").startswith("Zombie,")
    token(gm, zombie).focus()
    assert visibility(zombie) == "visible"
    shot(gm, "43-gm-crowded-name-on-focus")
    # Apart again, both names are written.
    token(gm, tenrec).focus()
    gm.evaluate(
        "id => { const t = window.d6room.board.tokens.get(id);"
        " return window.d6room.socket.send({type: 'token.move', token: id, x: 2, y: 3,"
        " version: t.version}); }",
        tenrec,
    )
    gm.wait_for_function(
        "id => !document.querySelector(`[data-token-id='${id}']`)"
        ".classList.contains('label-crowded')",
        arg=zombie,
    )
    assert gm.errors == []
