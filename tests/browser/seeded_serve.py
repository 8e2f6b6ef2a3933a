"""A browser test's site seeded and served by one process: the seed runs
after django.setup(), writes what it returns as JSON to a file, and the
process goes on to serve as `python -m vtt.serve` does.

    python -m tests.browser.seeded_serve SEED_MODULE SEED_OUT [SEED_ARG ...] -- DAPHNE_ARGS

A seed in a process of its own paid Python's and Django's start a second
time for every site (some seconds of the browser suite's CPU each). A seed
that registers a game of its own (strain_seed) registers it here, in the
process that serves it."""

import importlib
import json
import sys
from pathlib import Path


def main() -> None:
    split = sys.argv.index("--")
    seed_module, seed_out, *seed_args = sys.argv[1:split]
    # daphne's command line reads sys.argv: leave it only its own arguments.
    sys.argv = [sys.argv[0], *sys.argv[split + 1 :]]

    def seed() -> None:
        import django
        from django.db import connections

        django.setup()
        seeded = importlib.import_module(seed_module).seed(*seed_args)
        connections.close_all()  # daphne's threads open their own
        Path(seed_out).write_text(json.dumps(seeded))

    from vtt import serve

    serve.main(before_serving=seed)


if __name__ == "__main__":
    main()
