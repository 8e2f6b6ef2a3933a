"""The site as `python -m vtt.serve` runs it, with Strain Sixes (the
test-only game of tests/games/sixes.py) registered first, so a browser test
can play a game that lives in one test module."""

from tests.games import sixes
from vtt import games, serve

if __name__ == "__main__":
    games.register(sixes.STRAIN_KIT)
    serve.main()
