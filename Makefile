# Atelier developer entry points. See README.md.
#
#   make run             install missing system packages, build optimised (release), seed demo
#                        data, serve on http://localhost:8080 (SQLite)
#   make test            the whole suite on SQLite (Swift tests + Python integration tests)
#   make test-integration  only the Python integration tests
#   make test-postgres   the Swift suite against PostgreSQL at $DATABASE_URL
#   make test-s3         the media suites with the S3 backend (moto on loopback)
#   make test-browser    Selenium tests in headless Chromium
#   make test-contract   schemathesis against a local server
#   make test-faults     the fault suite: kill -9, SIGTERM, PostgreSQL stopped, read-only media
#   make test-cluster    scripts/cluster (3 instances, HAProxy, PostgreSQL primary + replica, S3) under test
#
# CONFIG=release make build builds with optimisations; RUN_CONFIG=debug make run serves a debug build.

CONFIG ?= debug
SWIFT  ?= swift
PYTHON ?= python3
VENV   := .venv
BIN    := .build/$(CONFIG)/atelier
RUN_CONFIG ?= release
RUN_BIN    := .build/$(RUN_CONFIG)/atelier

.PHONY: all deps build bin run venv api-reference test test-integration test-postgres test-s3 test-faults test-cluster \
        test-browser test-contract clean-venv

all: build

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build -c $(CONFIG)

# The debug server binary that the Python tests start (tests/python/conftest.py).
bin:
	$(SWIFT) build --product atelier

# `make run` serves the optimised build (what the benchmarks measure); RUN_CONFIG=debug make run
# serves the debug build that `make test` has already made, without the long first release build.
run: deps
	$(SWIFT) build -c $(RUN_CONFIG) --product atelier
	$(RUN_BIN) seed-demo
	exec $(RUN_BIN) serve --hostname $${HOST:-127.0.0.1} --port $${PORT:-8080}

# The virtualenv is rebuilt only when requirements.txt changes.
venv: $(VENV)/.stamp

$(VENV)/.stamp: tests/python/requirements.txt | deps
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r tests/python/requirements.txt
	touch $@

# /api/docs reads Resources/api-reference.json; write it again after changing openapi.yaml.
api-reference:
	$(SWIFT) run api-reference openapi.yaml Resources/api-reference.json

clean-venv:
	rm -rf $(VENV)

# Sequential on purpose: the Python tests need the binary the Swift build makes.
# DATABASE_URL is dropped so this is always the SQLite run (see test-postgres).
test: deps venv
	$(VENV)/bin/python scripts/generate-sdk-clients.py --check
	$(SWIFT) build --build-tests
	.build/debug/api-reference --check
	scripts/generate-sdk-api.sh --check
	scripts/sdk-package-size.sh
	env -u DATABASE_URL $(SWIFT) test
	$(VENV)/bin/pytest tests/python/integration tests/python/tools -q

test-integration: venv bin
	$(VENV)/bin/pytest tests/python/integration -q

test-postgres:
	@if [ -z "$$DATABASE_URL" ]; then \
	  echo 'test-postgres: set DATABASE_URL, e.g. DATABASE_URL="$$(scripts/start-postgres.sh)" make test-postgres' >&2; \
	  exit 2; \
	fi
	$(SWIFT) test

# The media suites again, with the S3 backend against moto's S3 server on loopback.
test-s3: venv
	scripts/test-s3.sh

test-browser: venv bin
	@scripts/install-deps.sh browser
	$(VENV)/bin/pytest tests/python/browser -q

test-contract: venv bin
	scripts/contract-test.sh

# The fault suite: real server processes killed (-9), stopped (SIGTERM), and starved of
# PostgreSQL and of a writable media folder (tests/faults/README.md).
test-faults: venv bin
	$(VENV)/bin/pytest -c tests/faults/pytest.ini tests/faults -q

test-cluster: venv bin
	$(VENV)/bin/pytest -c tests/cluster/pytest.ini tests/cluster -q
