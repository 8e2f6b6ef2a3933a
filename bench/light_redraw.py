"""Fog and light redrawn in the browser: a dark dungeon of 2,000 wall
segments and 30 lights, open in two headless Chromium pages (the player's,
the GM's) on a live server, a player's token moved back and forth.

    .venv/bin/python bench/light_redraw.py                 # 3 runs of 15 moves
    .venv/bin/python bench/light_redraw.py --runs 5 --moves 20
    .venv/bin/python bench/light_redraw.py --shots tests/artifacts   # and screenshots

The map is bench/vision_bench.py's dungeon of 12 x 12 rooms (144 x 144
squares) with its open doors left out, cut to 2,000 segments that all block
sight; fog on, lighting dark. 29 map lights stand in rooms (a third without
shadows, four colours) and a party token carries a lantern: 30.
The player controls 6 tokens in 3 rooms, the one moved in a dark room
with dark vision (6 squares), so each step changes its view; another
carries the lantern. 200 monsters stand about.

Measured in the player's page, for each move of the party's token (the
GM's page sends `token.move` as a drop does, so the player's page does
only what any incoming move makes it do; the server answers with a
vision frame, `lit` included):

- redraw: performance marks around the page's drawing of the frame
  (`d6room.vision.set`: the fog's mask paths, the lit layer, doors and
  tokens shown), its script time; then the next animation frame and a
  task posted from it: the style, layout and paint that frame did. The
  figure is script + frame work, the main thread's cost of the move.
- long tasks (PerformanceObserver "longtask") from the send until 500 ms
  after: the longest per move.
- the drag preview: `d6room.vision.dragAt` as a drag over a square calls
  it (the view and lit places worked out in the page with
  static/js/map/sight.js), timed with marks, once a move over a square of
  the mover's room not passed before (a square passed before is kept).
- pan: the view moves 6 px an animation frame for 120 frames, the gaps
  between frames (requestAnimationFrame's timestamps): p95 and the share
  over 25 ms (a frame dropped at 60 Hz); in the player's page (fog and its
  lit areas) and the GM's (every light's whole area, no fog), and the
  GM's again with the lit layer hidden, to tell what the lights cost.

A run's figure is the median over its moves (the largest for long tasks);
the figure printed is the median of the runs. The server is `python -m
vtt.serve` over a fresh SQLite file (`--database-url` for PostgreSQL), one
process, in-memory channel layer; Chromium is the system's."""

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from tests import served  # noqa: E402
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

PASSWORD = "light-redraw-pass-1"
SEGMENTS = 2000
COLOURS = ["#ffb347", "#ffe9a8", "#9ad0ff", "#c8ff9a"]


def seed(lights: int, monsters: int) -> dict:
    """The dungeon, its lights, the party and the monsters (after django.setup())."""
    from vision_bench import dungeon, square_in

    from tests.browser.seating import gm_and_player, joined_campaign
    from vtt.maps import light_edits
    from vtt.rules import sight
    from vtt.tabletop import services
    from vtt.tabletop.models import Token

    rng = random.Random(1)
    barriers, width, height, rooms = dungeon(12, 12, rng)
    walls = [
        [b.x1, b.y1, b.x2, b.y2, *(["door", b.state] if b.kind == sight.DOOR else [])]
        for b in barriers
        if b.blocks_sight()
    ][:SEGMENTS]
    gm, player = gm_and_player(PASSWORD)
    campaign = joined_campaign(gm, player, "The Dark Dungeon")
    scene = services.scene_create(
        campaign_id=campaign.pk,
        by=gm,
        name="Dungeon",
        width=width,
        height=height,
        walls=walls,
        fog=True,
        lighting="dark",
    )
    services.scene_activate(scene_id=scene.pk, by=gm)
    party_rooms = rng.sample(rooms, 3)
    party = []
    for k in range(6):
        x0, y0, w, h = party_rooms[k % 3]
        token = services.token_create(
            scene_id=scene.pk,
            by=gm,
            name=f"Delver {k + 1}",
            x=x0 + 1 + (k // 3) * 2,
            y=y0 + 1,
            color="#2266aa",
            controllers=[player.pk],
            # The mover sees 6 squares in the dark, so each step changes its view.
            sight_ft=30 if k == 0 else 0,
        )
        party.append(token)
    light_edits.light_place(
        scene_id=scene.pk, by=gm, token_id=party[1].pk, bright=4, dim=8, color="#ffb347"
    )
    # A lamp in the other two party rooms (the mover's stays dark), the rest anywhere.
    places = [square_in(room, rng) for room in party_rooms[1:]]
    elsewhere = [room for room in rooms if room != party_rooms[0]]
    places += [square_in(rng.choice(elsewhere), rng) for _ in range(lights - 1 - len(places))]
    for i, (x, y) in enumerate(places):
        dim = rng.choice([4, 6, 8])
        light_edits.light_place(
            scene_id=scene.pk,
            by=gm,
            x=x,
            y=y,
            bright=dim / 2,
            dim=dim,
            color=COLOURS[i % len(COLOURS)],
            shadows=i % 3 != 2,
        )
    Token.objects.bulk_create(
        Token(scene=scene, name=f"Ghoul {i + 1}", x=int(x), y=int(y), color="#7a5c3a")
        for i, (x, y) in enumerate(square_in(rng.choice(rooms), rng) for _ in range(monsters))
    )
    x0, y0, w, h = party_rooms[0]
    return {
        "room": [x0, y0, w, h],
        "campaign": campaign.pk,
        "mover": party[0].pk,
        "squares": [[x0 + 1, y0 + 1], [x0 + 2, y0 + 2]],
        "walls": len(walls),
    }


# Installed in both pages before any of their scripts run.
WATCH = """
window.bench = { longtasks: [], redraws: [] };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    window.bench.longtasks.push({ at: performance.timeOrigin + e.startTime, ms: e.duration });
  }
}).observe({ entryTypes: ["longtask"] });
"""

# Marks around the page's drawing of a vision frame, then the frame after.
REDRAW = """() => {
  const vision = window.d6room.vision;
  const draw = vision.set.bind(vision);
  let n = 0;
  vision.set = (seen) => {
    const name = `redraw-${++n}`;
    performance.mark(`${name}-start`);
    draw(seen);
    const script = performance.measure(name, `${name}-start`).duration;
    const at = performance.timeOrigin + performance.getEntriesByName(`${name}-start`)[0].startTime;
    const entry = { at, script, frame: null };
    window.bench.redraws.push(entry);
    requestAnimationFrame(() => {
      const frameStart = performance.now();
      const channel = new MessageChannel();
      channel.port1.onmessage = () => { entry.frame = performance.now() - frameStart; };
      channel.port2.postMessage(null);
    });
  };
}"""

# A drop on the GM's page, as board.grab's pointerup makes it. (The
# player's own drop also selects the token, which restyles the page's
# toolbar: a cost of its own, not the redraw's.)
DROP = """([id, x, y]) => {
  const board = window.d6room.board;
  const sent = performance.timeOrigin + performance.now();
  board.select(id);
  board.requestMove(id, x, y);
  return sent;
}"""

# The drag preview over a square, then the drag ended: the preview's script time.
PREVIEW = """([id, x, y]) => {
  const vision = window.d6room.vision;
  const token = window.d6room.board.tokens.get(id);
  performance.mark("preview-start");
  vision.dragAt(token, [x, y]);
  const ms = performance.measure("preview", "preview-start").duration;
  vision.dragAt(token, null);
  return ms;
}"""

# Frame times while the view pans once a frame.
PAN = """async ([frames, seconds]) => {
  const board = window.d6room.board;
  const times = [];
  await new Promise((done) => {
    let last = null;
    let n = 0;
    const until = performance.now() + seconds * 1000;
    const step = (now) => {
      if (last !== null) times.push(now - last);
      last = now;
      if (n === frames || now > until) return done();
      board.view.pan(n % 40 < 20 ? 6 : -6, n % 40 < 20 ? 4 : -4);
      n += 1;
      requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  });
  return times;
}"""


def p95(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


def open_page(browser, url, campaign, who, viewport):
    context = browser.new_context(viewport=viewport)
    context.add_init_script(WATCH)
    page = context.new_page()
    page.goto(url + "/accounts/login/")
    page.fill("#id_username", who)
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(url + "/")
    page.goto(f"{url}/campaigns/{campaign}/room/", timeout=120_000)
    page.wait_for_selector("#conn[data-state=open]", timeout=120_000)
    page.wait_for_function("() => window.d6room.board.tokens.size > 0", timeout=120_000)
    if who == "player":
        page.wait_for_function("() => window.d6room.board.fog.active && window.d6room.vision.sight")
    else:
        page.wait_for_function("() => document.querySelectorAll('.lit-area').length > 0")
    page.wait_for_timeout(1500)  # the first layout and names settle
    return page


def longest(tasks, start, end):
    return max([t["ms"] for t in tasks if start <= t["at"] < end] or [0.0])


def one_run(browser, url, table, moves, viewport):
    player = open_page(browser, url, table["campaign"], "player", viewport)
    gm = open_page(browser, url, table["campaign"], "gm", viewport)
    player.evaluate(REDRAW)
    mover, squares = table["mover"], table["squares"]
    x0, y0, w, h = table["room"]
    # The preview over squares the drag has not passed yet (kept ones cost nothing).
    fresh = [[x, y] for y in range(y0, y0 + h) for x in range(x0, x0 + w) if [x, y] not in squares]
    redraws, tasks, previews, lit = [], [], [], []
    for k in range(moves):
        now = player.evaluate(
            "id => { const t = window.d6room.board.tokens.get(id); return [t.x, t.y]; }", mover
        )
        x, y = squares[1] if now == squares[0] else squares[0]
        previews.append(player.evaluate(PREVIEW, [mover, *fresh[k % len(fresh)]]))
        player.evaluate("() => { window.bench.longtasks = []; window.bench.redraws = []; }")
        sent = gm.evaluate(DROP, [mover, x, y])
        player.wait_for_function(
            "() => window.bench.redraws.some((r) => r.frame !== null)", timeout=30_000
        )
        time.sleep(0.5)  # a second frame of the same move, and its long tasks
        drawn = [r for r in player.evaluate("() => window.bench.redraws") if r["frame"] is not None]
        redraws.append(sum(r["script"] + r["frame"] for r in drawn))
        tasks.append(longest(player.evaluate("() => window.bench.longtasks"), sent, sent + 500))
        lit.append(player.evaluate("() => document.querySelectorAll('.lit-area').length"))
    pan = player.evaluate(PAN, [120, 30])
    gm_pan = gm.evaluate(PAN, [120, 30])
    gm_lit = gm.evaluate("() => document.querySelectorAll('.lit-area').length")
    # The same pan without the lit layer: what the lights cost the frames.
    gm.evaluate("() => { window.d6room.board.layers.lit.style.display = 'none'; }")
    gm_bare = gm.evaluate(PAN, [120, 30])
    gm.context.close()
    player.context.close()
    return {
        "redraw_ms": statistics.median(redraws),
        "redraw_max_ms": max(redraws),
        "longtask_ms": max(tasks),
        "preview_ms": statistics.median(previews),
        "pan_p95_ms": p95(pan),
        "pan_dropped": sum(t > 25 for t in pan) / len(pan),
        "gm_pan_p95_ms": p95(gm_pan),
        "gm_pan_dropped": sum(t > 25 for t in gm_pan) / len(gm_pan),
        "gm_pan_unlit_p95_ms": p95(gm_bare),
        "gm_pan_unlit_dropped": sum(t > 25 for t in gm_bare) / len(gm_bare),
        "player_lit_areas": statistics.median(lit),
        "gm_lit_areas": gm_lit,
    }


def screenshots(browser, url, table, folder: Path):
    folder.mkdir(parents=True, exist_ok=True)
    for who in ("player", "gm"):
        for name, viewport in (
            ("desk", {"width": 1440, "height": 900}),
            ("phone", {"width": 390, "height": 844}),
        ):
            page = open_page(browser, url, table["campaign"], who, viewport)
            page.screenshot(path=str(folder / f"light-redraw-{who}-{name}.png"))
            page.context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--moves", type=int, default=15)
    parser.add_argument("--lights", type=int, default=30)
    parser.add_argument("--monsters", type=int, default=200)
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--shots", type=Path, default=None, help="folder for screenshots")
    parser.add_argument("--seed-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.seed_only:  # in the subprocess, against the served database
        import django

        django.setup()
        print(json.dumps(seed(args.lights, args.monsters)))
        return

    folder = Path(tempfile.mkdtemp(prefix="light_redraw_"))
    env = {
        **os.environ,
        "DATABASE_URL": args.database_url or f"sqlite:///{folder / 'table.sqlite3'}",
        "DJANGO_SETTINGS_MODULE": "vtt.settings",
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECRET_KEY": "light-redraw-bench-" + "x" * 40,
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_COOKIES": "0",
        "SECURE_HSTS_SECONDS": "0",
        "PYTHONPATH": str(ROOT),
        "MEDIA_ROOT": str(folder / "media"),
    }
    env.pop("REDIS_URL", None)
    run = {"cwd": ROOT, "env": env, "check": True, "capture_output": True, "text": True}
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], timeout=300, **run)
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], timeout=300, **run
    )
    seeded = subprocess.run(
        [sys.executable, __file__, "--seed-only", "--lights", str(args.lights)]
        + ["--monsters", str(args.monsters)],
        timeout=300,
        **run,
    )
    table = json.loads(seeded.stdout.strip().splitlines()[-1])
    port = served.free_port()
    proc = served.start(port, env)
    url = f"http://127.0.0.1:{port}"
    from playwright.sync_api import sync_playwright

    try:
        served.wait_until_up(url + "/accounts/login/", proc)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            results = []
            for n in range(args.runs):
                results.append(
                    one_run(browser, url, table, args.moves, {"width": 1440, "height": 900})
                )
                print(
                    f"run {n + 1}: " + json.dumps({k: round(v, 3) for k, v in results[-1].items()}),
                    file=sys.stderr,
                )
            if args.shots:
                screenshots(browser, url, table, args.shots)
            browser.close()
    finally:
        served.stop(proc)
    load = os.getloadavg()
    print(
        f"{table['walls']} wall segments, {args.lights} lights, median of {args.runs} runs"
        f" of {args.moves} moves, load average {load[0]:.1f}:"
    )
    for key in results[0]:
        values = [r[key] for r in results]
        print(
            f"- {key}: {statistics.median(values):.1f} (runs: {', '.join(f'{v:.1f}' for v in values)})"
        )


if __name__ == "__main__":
    main()
