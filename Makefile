# GiftGenius: `make run` serves the app, `make test` runs the whole suite (see README).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
SWEEP_INTERVAL ?= 30
# The origin people reach the app at: picture URLs in MCP fragments, the widget's CSP domains and
# the MCP origin check all follow it. Derived from HOST/PORT unless given, so `PORT=8103 make run`
# does not point the preview's pictures at :8000.
PUBLIC_ORIGIN ?= http://$(HOST):$(PORT)

.PHONY: run test bench bench-ab bench-instructions lint format setup conformance localstripe

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $@

setup: $(VENV)/.installed
	mkdir -p var
	$(PY) manage.py migrate --noinput -v0
	$(PY) manage.py migrate --database payment_ledger --noinput -v0
	$(PY) manage.py seed_catalog
	$(PY) manage.py seed_store
	$(PY) manage.py ensure_demo_users
	$(PY) manage.py ensure_oauth_client

# Serves Django, the REST tools and /mcp as one ASGI app; the background sweeps run beside it.
run: export PUBLIC_ORIGIN := $(PUBLIC_ORIGIN)
run: setup
	@$(PY) manage.py run_sweeps --loop $(SWEEP_INTERVAL) & sweeps=$$!; \
	trap 'kill $$sweeps 2>/dev/null' EXIT INT TERM; \
	echo "GiftGenius on $(PUBLIC_ORIGIN)/ (listening on $(HOST):$(PORT); preview: /preview/, admin: /admin/, API docs: /api/docs)"; \
	$(PY) -m uvicorn giftgenius.asgi:application --host $(HOST) --port $(PORT)

# What the browser tests need, provisioned by `make test` (SKIP_BROWSER_TESTS=1 leaves them out).
BROWSER_TEST_DEPS := $(if $(filter 1,$(SKIP_BROWSER_TESTS)),,/usr/bin/chromium node_modules/.package-lock.json)

/usr/bin/chromium:
	@bin/provision-chromium

node_modules/.package-lock.json: package-lock.json
	@bin/provision-node-modules

test: $(VENV)/.installed $(BROWSER_TEST_DEPS)
	mkdir -p var
	$(PY) -m pytest $(PYTEST_ARGS)

# A fake Stripe API for running the app with PAYMENT_PROVIDER=stripe (docs/payments.md §4).
LOCALSTRIPE_PORT ?= 8420
localstripe: $(VENV)/.installed
	@echo "Run the app against it: PAYMENT_PROVIDER=stripe STRIPE_API_BASE=http://127.0.0.1:$(LOCALSTRIPE_PORT) STRIPE_API_KEY=sk_test_local STRIPE_WEBHOOK_SECRET=whsec_local make run"
	$(PY) bin/localstripe --host 127.0.0.1 --port $(LOCALSTRIPE_PORT)

bench: setup
	$(PY) -m bench $(BENCH_ARGS)

# Two versions side by side, driven in turns (bench/ab.py): REV against this working tree.
bench-ab: setup
	@test -n "$(REV)" || { echo "usage: make bench-ab REV=<commit> [BENCH_ARGS=...]"; exit 2; }
	$(PY) -m bench.ab $(REV) $(BENCH_ARGS)

# Instructions per call, counted by callgrind (bench/instructions.py): figures that do not drift.
bench-instructions: setup
	$(PY) -m bench.instructions $(if $(REV),--rev $(REV)) $(BENCH_ARGS)

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

format: $(VENV)/.installed
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

# --- MCP conformance: the official suite's server scenarios against a live `make run`
# on a free port; needs `npm ci` (the pinned suite) and installs the pinned Node.js it needs.
conformance: setup node_modules/.package-lock.json
	$(PY) -m pip install -q -e '.[conformance]'
	$(PY) bin/conformance
