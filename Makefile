# d6 virtual tabletop: `make run` sets up and serves, `make test` runs the
# everyday suite: all but the browser tests and the fault suite, which
# PYTEST_ARGS='-m browser' and PYTEST_ARGS=tests/faults ask for (docs/testing.md).
# Both are safe to repeat: dependencies are installed again only when
# pyproject.toml changes.

VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=
# pytest-xdist workers for `make test` (docs/testing.md); 0 runs in one process.
TEST_WORKERS ?= 2

# The first Python 3.11 or newer on PATH builds the virtual environment;
# `make PYTHON=/path/to/python3.12 run` picks another.
PYTHON ?= $(shell for p in python3 python3.13 python3.12 python3.11; do \
	command -v $$p >/dev/null 2>&1 && \
	$$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null && \
	{ echo $$p; break; }; done)

# Stamps carry a checksum of pyproject.toml, so an edited dependency list
# reinstalls and an unchanged one does not.
DEPS_KEY := $(shell cksum pyproject.toml | cut -d' ' -f1)
RUN_STAMP := $(VENV)/.installed-run-$(DEPS_KEY)
DEV_STAMP := $(VENV)/.installed-dev-$(DEPS_KEY)

.PHONY: run setup serve test lint format clean

run: setup serve

setup: $(RUN_STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput --verbosity 0
	@# The demo campaign prints its passwords once, when it is first created.
	@if $(PY) manage.py help demo >/dev/null 2>&1; then $(PY) manage.py demo; fi

serve: $(RUN_STAMP)
	@echo "Serving the d6 virtual tabletop on http://$(HOST):$(PORT)/ (Ctrl-C stops it)"
	$(PY) -m vtt.serve -b $(HOST) -p $(PORT) vtt.asgi:application

# The suite starts Python some hundreds of times (its workers, each served
# site, each subprocess test): where the environment forbids bytecode caches
# (PYTHONDONTWRITEBYTECODE), every one of them compiled the project's sources
# and pytest rewrote every test file again, seconds each time.
test: $(DEV_STAMP)
	env -u PYTHONDONTWRITEBYTECODE $(PY) -m pytest -n $(TEST_WORKERS) $(PYTEST_ARGS)

lint: $(DEV_STAMP)
	$(VENV)/bin/ruff check .

format: $(DEV_STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

clean:
	rm -rf $(VENV) staticfiles d6vtt.egg-info

$(PY):
	@test -n "$(PYTHON)" || { echo "Python 3.11 or newer is needed and none was found on PATH" >&2; exit 1; }
	@echo "Creating $(VENV) with $(PYTHON)"
	$(PYTHON) -m venv $(VENV)

$(RUN_STAMP): | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check -e .
	rm -f $(VENV)/.installed-run-*
	touch $@

# The dev extra includes everything `run` needs, so it satisfies both stamps.
# --no-compile: the suite imports a fraction of what the tools install, and
# compiles that on first import; compiling all of it cost `make test` 7 s.
$(DEV_STAMP): | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check --no-compile -e '.[dev]'
	rm -f $(VENV)/.installed-*
	touch $@ $(RUN_STAMP)
