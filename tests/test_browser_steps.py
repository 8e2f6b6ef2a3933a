"""A browser file plays one table through in steps (docs/testing.md,
"Order"): asked for alone, or with its file shuffled among others, a step
runs after the steps it stands on and in the order they are written
(`tests/conftest.py`). Checked on a small file of steps, in a pytest of its
own."""

from pathlib import Path

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[1]

STEPS = """
import pytest

pytestmark = pytest.mark.browser
TABLE = []


@pytest.fixture(scope="module", params=["one", "two"])
def site(request):
    TABLE.clear()
    return request.param


def test_lay(site):
    TABLE.append(("laid", site))


def test_join(site):
    assert TABLE == [("laid", site)]
    TABLE.append(("joined", site))


def test_roll(site):
    assert TABLE == [("laid", site), ("joined", site)]
"""

CONFTEST = """
import pytest

from tests.conftest import pytest_collection_modifyitems, pytest_deselected  # noqa: F401


def pytest_configure(config):
    config.addinivalue_line("markers", "browser: a step of a table played in a browser")
"""


def _run(pytester, *args):
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_steps=STEPS)
    pytester._monkeypatch.setenv("PYTHONPATH", str(ROOT))
    pytester._monkeypatch.delenv("DJANGO_SETTINGS_MODULE", raising=False)
    return pytester.runpytest_subprocess(
        "-p", "no:django", "-p", "no:xdist", "-p", "no:cacheprovider", "-v", *args
    )


def test_a_step_named_alone_runs_after_the_steps_it_stands_on(pytester):
    result = _run(pytester, "-p", "no:randomly", "test_steps.py::test_roll[two]")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(
        ["*test_lay?two? PASSED*", "*test_join?two? PASSED*", "*test_roll?two? PASSED*"]
    )


def test_a_step_chosen_by_keyword_takes_its_steps_back(pytester):
    result = _run(pytester, "-p", "no:randomly", "-k", "roll", "test_steps.py")
    result.assert_outcomes(passed=6)


def test_shuffled_steps_run_as_written_one_site_at_a_time(pytester):
    for seed in ("1", "2", "3"):
        result = _run(pytester, "-p", "randomly", f"--randomly-seed={seed}", "test_steps.py")
        result.assert_outcomes(passed=6)
