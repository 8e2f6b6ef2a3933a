"""The two commands a newcomer types, `make run` and `make test`, the CI
script, and the README's shell example.

The Makefile runs here against a stand-in Python that only logs what it is
asked to do, so these tests check the sequence and the idempotency without
installing anything."""

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

STAND_IN = """#!/bin/sh
echo "$(basename "$0") $*" >> "$COMMAND_LOG"
case "$*" in
  "manage.py help demo") [ -n "$HAS_DEMO" ] || exit 1 ;;
  "-m venv .venv")
    mkdir -p .venv/bin
    cp "$0" .venv/bin/python
    ;;
esac
exit 0
"""

needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


class Checkout:
    """A directory with the project's Makefile and pyproject.toml, and a
    stand-in Python on which to run make."""

    def __init__(self, path: Path):
        self.path = path
        self.log = path / "commands.log"
        shutil.copy(ROOT / "Makefile", path)
        shutil.copy(ROOT / "pyproject.toml", path)
        self.python = path / "python3-stand-in"
        self.python.write_text(STAND_IN)
        self.python.chmod(self.python.stat().st_mode | stat.S_IXUSR)

    def make(self, *args, **env):
        self.log.write_text("")
        # A make that runs this suite (CI's `make test PYTEST_ARGS=...`)
        # hands its command-line variables down, in MAKEFLAGS and in the
        # environment; the make under test must start from none of them.
        leaked = ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "PYTEST_ARGS", "TEST_WORKERS")
        outer = {k: v for k, v in os.environ.items() if k not in leaked}
        result = subprocess.run(
            ["make", "--no-print-directory", f"PYTHON={self.python}", *args],
            cwd=self.path,
            env={**outer, "COMMAND_LOG": str(self.log), **env},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        return self.log.read_text().splitlines()


def installs(commands):
    return [c for c in commands if "pip install" in c]


@pytest.fixture
def checkout(tmp_path):
    return Checkout(tmp_path)


@needs_make
def test_make_test_creates_the_venv_installs_dev_extras_and_runs_pytest(checkout):
    commands = checkout.make("test")
    assert commands[0] == "python3-stand-in -m venv .venv"
    assert installs(commands) == [
        "python -m pip install --quiet --disable-pip-version-check --no-compile -e .[dev]"
    ]
    assert commands[-1] == "python -m pytest -n 2"


@needs_make
def test_make_test_is_idempotent_until_pyproject_changes(checkout):
    checkout.make("test")
    assert checkout.make("test") == ["python -m pytest -n 2"]
    assert checkout.make("test", PYTEST_ARGS="-x tests/rules") == [
        "python -m pytest -n 2 -x tests/rules"
    ]
    assert checkout.make("test", TEST_WORKERS="0") == ["python -m pytest -n 0"]

    pyproject = checkout.path / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + "\n# a new dependency\n")
    assert len(installs(checkout.make("test"))) == 1
    assert installs(checkout.make("test")) == []


@needs_make
def test_make_run_sets_up_then_serves_with_daphne_on_uvloop(checkout):
    commands = checkout.make("run")
    assert installs(commands) == ["python -m pip install --quiet --disable-pip-version-check -e ."]
    assert commands[-4:] == [
        "python manage.py migrate --noinput",
        "python manage.py collectstatic --noinput --verbosity 0",
        "python manage.py help demo",
        "python -m vtt.serve -b 127.0.0.1 -p 8000 vtt.asgi:application",
    ]
    # Twice: nothing reinstalled, the set-up steps are repeated harmlessly.
    assert installs(checkout.make("run")) == []


@needs_make
def test_make_run_loads_the_demo_when_the_command_exists(checkout):
    commands = checkout.make("run", "PORT=8123", HAS_DEMO="1")
    assert "python manage.py demo" in commands
    assert commands.index("python manage.py demo") < len(commands) - 1
    assert commands[-1] == "python -m vtt.serve -b 127.0.0.1 -p 8123 vtt.asgi:application"


@needs_make
def test_dev_install_also_satisfies_run(checkout):
    checkout.make("test")
    assert installs(checkout.make("run")) == []


@needs_make
def test_make_refuses_without_a_recent_python(tmp_path):
    shutil.copy(ROOT / "Makefile", tmp_path)
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    result = subprocess.run(
        ["make", "--no-print-directory", "PYTHON=", "test"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "Python 3.11 or newer is needed" in result.stderr
    assert not (tmp_path / ".venv").exists()


def test_ci_script_is_strict_bash():
    script = ROOT / ".ci" / "run"
    assert script.stat().st_mode & stat.S_IXUSR, ".ci/run must be executable"
    lines = script.read_text().splitlines()
    assert lines[0] == "#!/usr/bin/env bash"
    assert "set -euo pipefail" in lines
    checked = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr


def test_ci_script_runs_the_suite_with_services_and_browser_required():
    text = (ROOT / ".ci" / "run").read_text()
    for needed in (
        "REQUIRE_SERVICES=1",
        "REQUIRE_BROWSER=1",
        'DATABASE_URL="postgres://',
        'REDIS_URL="redis://',
        "make lint",
    ):
        assert needed in text, needed
    runs = [line.strip() for line in text.splitlines() if "make test" in line]
    # On the services in random order, the browser files in their order, the
    # fault suite alone in one process, and the embedded defaults.
    assert any("-p randomly" in run and '"not browser"' in run for run in runs), runs
    assert any("-m browser" in run for run in runs), runs
    assert any("TEST_WORKERS=0" in run and "tests/faults" in run for run in runs), runs
    assert len(runs) == 4, runs


def test_readme_shell_example_adjudicates():
    readme = (ROOT / "README.md").read_text()
    line = next(
        line.strip()
        for line in readme.splitlines()
        if line.strip().startswith("echo '") and "manage.py adjudicate" in line
    )
    request = line.split("'")[1]
    result = subprocess.run(
        [sys.executable, "manage.py", "adjudicate"],
        cwd=ROOT,
        input=request,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    answer = json.loads(result.stdout)
    assert answer["system"] == json.loads(request)["system"]
    assert "outcome" in answer and answer["dice"]


def test_readme_names_the_commands_and_links_the_deploy_doc():
    readme = (ROOT / "README.md").read_text()
    for needed in ("make run", "make test", "docs/deploy.md", "Python 3.11"):
        assert needed in readme, needed
