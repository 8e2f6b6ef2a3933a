"""`python -m vtt.serve`: daphne, started on uvloop."""

import signal
import subprocess

import pytest

from tests import served
from vtt.serve import COLLECTOR_THRESHOLDS


def run_python(code: str) -> subprocess.CompletedProcess:
    return served.python("-c", code)


def test_daphne_makes_its_loop_with_uvloop():
    pytest.importorskip("uvloop")
    done = run_python(
        "from vtt.serve import use_uvloop\n"
        "print(use_uvloop())\n"
        "import daphne.server\n"
        "print(type(daphne.server.twisted_loop).__module__)\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "uvloop"]


def test_too_late_to_choose_the_loop_is_an_error():
    done = run_python("import daphne.server\nfrom vtt.serve import main\nmain()\n")
    assert done.returncode == 1
    assert "daphne made its event loop before uvloop could be chosen" in done.stderr


def test_the_command_serves_with_the_tuned_collector():
    # --help: daphne's own arguments are read (and the command ends) after
    # the process has been set up for serving.
    done = run_python(
        "import gc, sys\n"
        "from vtt.serve import main\n"
        "sys.argv = ['vtt.serve', '--help']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(*gc.get_threshold())\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == " ".join(map(str, COLLECTOR_THRESHOLDS))


def test_it_serves_and_stops_on_ctrl_c(tmp_path):
    port = served.free_port()
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "PATH": "/usr/bin:/bin"}
    server = served.start(port, env)
    try:
        served.wait_until_up(f"http://127.0.0.1:{port}/healthz", server)
        server.send_signal(signal.SIGINT)
        # A bound for a stop that hangs, not a timing: on a machine busy with
        # two test workers a clean stop has taken over 15 s.
        assert server.wait(timeout=45) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


CHURN = """
import gc, sys
from vtt.serve import tune_collector
if sys.argv[1] == "tuned":
    tune_collector()
kept = [[i] for i in range(50_000)]  # the sockets' long-lived state
gc.collect()
before = gc.get_stats()[2]["collections"]
batch = []
for _ in range(300):  # frames and intents that live until the next burst
    batch = [[i] for i in range(4_000)]
print(gc.get_stats()[2]["collections"] - before)
"""


def test_the_tuned_collector_makes_fewer_full_collections_under_churn():
    """Objects that live a little while (here: each burst until the next)
    reach the oldest generation and set off full collections under Python's
    defaults; the serving process's thresholds let them die younger."""
    full = {}
    for how in ("default", "tuned"):
        done = served.python("-c", CHURN, how)
        assert done.returncode == 0, done.stderr
        full[how] = int(done.stdout)
    assert full["default"] >= 3
    assert full["tuned"] * 3 <= full["default"]
