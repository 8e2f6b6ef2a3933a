"""vtt.rules is pure Python: importing it (every game included) loads no Django."""

import json
import os

from tests import served


def test_rules_package_imports_nothing_from_django():
    script = (
        "import json, sys, vtt.rules, vtt.rules.cli; "
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('django'))))"
    )
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    result = served.python("-c", script, env=env)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == []
