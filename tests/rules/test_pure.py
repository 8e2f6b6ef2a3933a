"""vtt.rules is pure Python: importing it (every game included) loads no Django."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_rules_package_imports_nothing_from_django():
    script = (
        "import json, sys, vtt.rules, vtt.rules.cli; "
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('django'))))"
    )
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == []
