"""The rules are pure Python: importing vtt.rules, the command line and every
game's rules (vtt/games/<game>/rules/, each module of them) loads no Django."""

import json
import os

from tests import served
from vtt import games

SCRIPT = """
import importlib, json, pkgutil, sys
import vtt.rules, vtt.rules.cli
import vtt.games
from vtt.rules.systems import SYSTEMS

found = sorted(SYSTEMS)  # finding the games imports each one's rules package
modules = []
for game in pkgutil.iter_modules(vtt.games.__path__):
    name = f"vtt.games.{game.name}.rules"
    if game.ispkg and importlib.util.find_spec(name):
        rules = importlib.import_module(name)
        modules.append(name)
        for info in pkgutil.walk_packages(rules.__path__, name + "."):
            importlib.import_module(info.name)
            modules.append(info.name)
django = sorted(m for m in sys.modules if m.startswith("django"))
print(json.dumps({"systems": found, "modules": modules, "django": django}))
"""


def test_the_rules_of_every_game_import_nothing_from_django():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    result = served.python("-c", SCRIPT, env=env)
    assert result.returncode == 0, result.stderr
    loaded = json.loads(result.stdout)
    assert loaded["django"] == []
    # Every game the tabletop offers had its rules found and imported, each
    # module of them (so a Django import in any of them would show above).
    assert loaded["systems"] == games.ids()
    for game in games.ids():
        assert f"vtt.games.{game}.rules" in loaded["modules"]
    assert len(loaded["modules"]) > len(games.ids())
