# Tablestakes developer commands. Everything runs through .venv (made by scripts/bootstrap).
PY := .venv/bin/python
# pytest keeps each test module's assertion-rewritten bytecode in __pycache__ and reuses it
# next run; with PYTHONDONTWRITEBYTECODE set (some shells and sandboxes set it) it rewrites
# every module again in every worker, about 4 s of each run of make test-fast.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: help bootstrap run test test-fast coverage lint bench check-records lock messages

help:
	@echo "make run            app on SQLite with demo data at http://127.0.0.1:8000"
	@echo "make test           ruff + the whole pytest suite (installs chromium if root)"
	@echo "make test-fast      the scoring core, the architecture and the input cleaning (<30 s)"
	@echo "make coverage       the whole suite, then line and branch coverage of ledger/, scoresheets/"
	@echo "make lint           ruff check ."
	@echo "make bench          run every bench/*.py"
	@echo "make check-records  manage.py score against ../shared/cases"
	@echo "make messages       the catalogs in locale/ made from the code again, then compiled (.po and .mo committed)"
	@echo "make lock           requirements.in -> requirements.txt, requirements-dev.in -> requirements-dev.txt, requirements-installer.in -> .txt (pinned, hashed)"

bootstrap:
	@scripts/bootstrap

run: bootstrap
	$(PY) manage.py migrate --noinput
	@# Demo data: the idempotent load_demo command (demo/demo and a demo evening) when it
	@# exists, else a plain fixtures/demo.json fixture, else none.
	@if [ -f ledger/management/commands/load_demo.py ]; then \
		echo "$(PY) manage.py load_demo"; $(PY) manage.py load_demo; \
	elif [ -f fixtures/demo.json ]; then \
		echo "$(PY) manage.py loaddata demo"; $(PY) manage.py loaddata demo; \
	else \
		echo "run: no demo data yet (no load_demo command, no fixtures/demo.json)"; \
	fi
	$(PY) manage.py runserver 127.0.0.1:8000

test:
	@scripts/test

# The edit-test loop: no database, no browser. Extra pytest arguments: make test-fast ARGS=-x
test-fast: bootstrap
	$(PY) -m pytest -q -n 2 tests/rules tests/test_architecture.py \
		tests/ledger/test_cleaning.py $(ARGS)

coverage: bootstrap
	@scripts/coverage $(ARGS)

lint: bootstrap
	$(PY) -m ruff check .

bench: bootstrap
	@scripts/bench

check-records: bootstrap
	@scripts/check-records

# The locks: every package pinned with its hashes (pip-tools); the runtime one first, since
# the dev lock is constrained to it (so it has no extras: pip refuses extras in constraints).
# The dev lock keeps its extras ("coverage[toml]==..."): pip's hash-checking mode refuses a
# package asked for with an extra ("coverage[toml]>=7.10.6", by pytest-cov) unless the lock
# pins it with that extra, and then takes the newest release from the index instead.
# Only the registry's addresses go in, none of this machine's (--no-emit-*).
LOCK := .venv/bin/pip-compile --quiet --generate-hashes --allow-unsafe \
	--no-emit-index-url --no-emit-find-links $(LOCK_ARGS)
lock: bootstrap
	$(LOCK) --strip-extras -o requirements.txt requirements.in
	$(LOCK) --no-strip-extras -o requirements-dev.txt requirements-dev.in
	$(LOCK) --strip-extras -o requirements-installer.txt requirements-installer.in

# The message catalogs: makemessages with the options tests/i18n/catalogs.py checks them by
# (MAKEMESSAGES_ARGS), then compilemessages (GNU gettext's msgfmt). Commit locale/ after it.
messages:
	$(PY) manage.py makemessages -l de -l es -l fr -l ru --add-location=file --no-obsolete \
		-i tests -i bench -i static -i staticfiles -i scripts -i node_modules -i fixtures
	$(PY) manage.py compilemessages --ignore .venv --ignore node_modules
