"""A big map in the browser: a 100 x 100 scene with 3,000 tokens, open in
two headless Chromium pages (the GM's and a player's) on a live server.

    .venv/bin/python bench/big_map.py                      # 3 runs, 3,000 tokens
    .venv/bin/python bench/big_map.py --tokens 1000 --runs 1
    .venv/bin/python bench/big_map.py --shots tests/artifacts   # and screenshots, fitted

Measured in each run, in the pages themselves (one clock: both pages are in
the same browser, times are `performance.timeOrigin + performance.now()`):

- move: the GM's page drops a token as a drag does (`board.select` then
  `board.requestMove`, which sends `token.move`); on the player's page the
  board redraws the token (a MutationObserver on its node's attributes),
  the board's own record of where it drew it (`board.drawnAt`) gives the
  square, and the next animation frame is "visible" (that frame's paint
  shows it). Latency: drop to visible.
- long tasks (PerformanceObserver "longtask") on the player's page from a
  drop until 500 ms later: the longest one per incoming move; and the same
  on the GM's page for its own drop.
- pan and zoom: on the player's page, once per animation frame for 120
  frames (or 30 s, whichever comes first), the view pans by 6 px (or
  zooms by 3 % at the map's middle, in then out) as a drag or a wheel does (`view.pan`, a WheelEvent on the map);
  frame time is the gap between animation frames. p95 and the share of
  frames longer than 1.5 frames at 60 Hz (dropped).

The figure of a run is the median over its moves (latency), the largest
long task and the p95 frame; the figure printed is the median of the runs.
The server is `python -m vtt.serve` over a fresh SQLite file (as the
browser tests run it; `--database-url` for PostgreSQL), one process,
in-memory channel layer. Chromium is the system's (/usr/bin/chromium)."""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests import served  # noqa: E402
from tests.browser.big_seed import PASSWORD  # noqa: E402
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

# Installed in both pages before any of their scripts run.
WATCH = """
window.bench = { longtasks: [], seen: {} };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    window.bench.longtasks.push({ at: performance.timeOrigin + e.startTime, ms: e.duration });
  }
}).observe({ entryTypes: ["longtask"] });
"""

# Player's page: when the board redraws the token (its node's attributes
# change), the square it drew it on by the board's own record (drawnAt),
# then the next animation frame, whose paint shows it.
OBSERVE = """(id) => {
  const board = window.d6room.board;
  const node = document.querySelector(`[data-token-id="${id}"]`);
  window.bench.seen = {};
  new MutationObserver(() => {
    const changed = performance.timeOrigin + performance.now();
    const at = board.drawnAt.get(id);
    const where = at ? `${at[0]},${at[1]}` : null;
    if (where in window.bench.seen) return;
    window.bench.seen[where] = null;
    requestAnimationFrame(() => {
      window.bench.seen[where] = { changed, painted: performance.timeOrigin + performance.now() };
    });
  }).observe(node, { attributes: true });
}"""

# GM's page: a drop, as board.grab's pointerup makes it.
DROP = """([id, x, y]) => {
  const board = window.d6room.board;
  const sent = performance.timeOrigin + performance.now();
  board.select(id);
  board.requestMove(id, x, y);
  return sent;
}"""

# Frame times while the view pans or zooms once a frame.
FRAMES = """async ([kind, frames, seconds]) => {
  const board = window.d6room.board;
  const svg = board.svg;
  const box = board.view.screenBox();
  const times = [];
  await new Promise((done) => {
    let last = null;
    let n = 0;
    const until = performance.now() + seconds * 1000;
    const step = (now) => {
      if (last !== null) times.push(now - last);
      last = now;
      if (n === frames || now > until) return done();
      if (kind === "pan") board.view.pan(n % 40 < 20 ? 6 : -6, n % 40 < 20 ? 4 : -4);
      else svg.dispatchEvent(new WheelEvent("wheel", {
        deltaY: n < frames / 2 ? -20 : 20, clientX: box.left + box.width / 2,
        clientY: box.top + box.height / 2, bubbles: true, cancelable: true }));
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
    page.wait_for_function("window.d6room.board.tokens.size > 0", timeout=120_000)
    page.wait_for_timeout(1500)  # the first layout and names settle
    return page


def longest(tasks, start, end):
    return max([t["ms"] for t in tasks if start <= t["at"] < end] or [0.0])


def one_run(browser, url, table, moves, viewport):
    gm = open_page(browser, url, table["campaign"], "gm", viewport)
    player = open_page(browser, url, table["campaign"], "player", viewport)
    mover, middle = table["runner"], table["middle"]
    player.evaluate(OBSERVE, mover)
    latencies, player_tasks, gm_tasks = [], [], []
    for _ in range(moves):
        # Back and forth between two squares, from wherever the last run left it.
        now = gm.evaluate("id => window.d6room.board.tokens.get(id).x", mover)
        x = middle + 3 if now == middle + 2 else middle + 2
        gm.evaluate("() => { window.bench.longtasks = []; }")
        player.evaluate("() => { window.bench.longtasks = []; }")
        sent = gm.evaluate(DROP, [mover, x, middle])
        where = f"{x},{middle}"
        player.wait_for_function(f"() => window.bench.seen[{json.dumps(where)}]", timeout=30_000)
        seen = player.evaluate(f"() => window.bench.seen[{json.dumps(where)}]")
        player.evaluate("() => { window.bench.seen = {}; }")
        time.sleep(0.5)
        latencies.append(seen["painted"] - sent)
        player_tasks.append(
            longest(player.evaluate("() => window.bench.longtasks"), sent, sent + 500)
        )
        gm_tasks.append(longest(gm.evaluate("() => window.bench.longtasks"), sent - 1, sent + 500))
    frames = {kind: player.evaluate(FRAMES, [kind, 120, 30]) for kind in ("pan", "zoom")}
    gm.context.close()
    player.context.close()
    return {
        "move_ms": statistics.median(latencies),
        "move_max_ms": max(latencies),
        "player_longtask_ms": max(player_tasks),
        "player_longtask_median_ms": statistics.median(player_tasks),
        "gm_longtask_ms": max(gm_tasks),
        **{f"{kind}_p95_ms": p95(times) for kind, times in frames.items()},
        **{
            f"{kind}_dropped": sum(t > 25 for t in times) / len(times)
            for kind, times in frames.items()
        },
    }


def screenshots(browser, url, table, folder: Path):
    folder.mkdir(parents=True, exist_ok=True)
    for name, viewport in (
        ("desk", {"width": 1440, "height": 900}),
        ("phone", {"width": 390, "height": 844}),
    ):
        page = open_page(browser, url, table["campaign"], "player", viewport)
        page.screenshot(path=str(folder / f"big-map-{name}.png"))
        page.evaluate("() => window.d6room.board.view.zoomAt(4)")
        page.wait_for_timeout(500)
        page.screenshot(path=str(folder / f"big-map-{name}-zoomed.png"))
        page.context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tokens", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--moves", type=int, default=15)
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--shots", type=Path, default=None, help="folder for screenshots")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="big_map_"))
    env = {
        **os.environ,
        "DATABASE_URL": args.database_url or f"sqlite:///{folder / 'table.sqlite3'}",
        "DJANGO_SETTINGS_MODULE": "vtt.settings",
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECRET_KEY": "big-map-bench-" + "x" * 40,
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
        [sys.executable, "-m", "tests.browser.big_seed", str(args.tokens)], timeout=300, **run
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
        f"{args.tokens} tokens, 100 x 100, median of {args.runs} runs, load average {load[0]:.1f}:"
    )
    for key in results[0]:
        values = [r[key] for r in results]
        print(
            f"- {key}: {statistics.median(values):.1f} (runs: {', '.join(f'{v:.1f}' for v in values)})"
        )


if __name__ == "__main__":
    main()
