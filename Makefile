# The README's commands. `make demo` and `make test` install what they need first.
.PHONY: demo test test-wide setup setup-dev checks checks-beside lint docs test-rust test-python \
	wheel clean

CARGO := PATH="$(HOME)/.cargo/bin:$(PATH)" cargo
VENV := .venv/bin

demo: setup
	$(VENV)/layerbench ladder --json ladder.json

# The checks that read the code without running it (make checks: the linters and the docs
# build) run beside the Python tests rather than before them, niced: the Python tests spend much
# of their time waiting on servers and timed trials, and leave a core idle, which the checks
# take. The load generator's tests, some of which time what they run, go before. The checks'
# output is shown if they fail, as soon as they do; either failing fails make test. Ctrl-C
# reaches both (they are make's own jobs, in its process group).
test: setup-dev test-rust
	@$(MAKE) --no-print-directory -j2 checks-beside test-python

checks: lint docs

checks-beside:
	@log=$$(mktemp /tmp/layerbench-checks.XXXXXX); trap 'rm -f $$log' EXIT; \
	trap 'exit 130' INT TERM; began=$$(date +%s); \
	if nice -n 10 $(MAKE) --no-print-directory checks >$$log 2>&1; then \
		printf '\nmake test: lint and docs passed (%s s)\n' $$(( $$(date +%s) - began )); \
	else \
		cat $$log; echo "make test: lint or docs failed (above)" >&2; exit 1; \
	fi

setup:
	bash scripts/setup.sh runtime

setup-dev:
	bash scripts/setup.sh dev

lint:
	cd load && $(CARGO) fmt --check
	cd load && $(CARGO) clippy --quiet --locked --all-targets -- -D warnings
	$(VENV)/ruff check .
	$(VENV)/ruff format --check .
	$(VENV)/mypy

# The documentation site (mkdocs.yml, docs/) into site/: a broken link or anchor, or a page
# outside the navigation, fails the build. `.venv/bin/mkdocs serve` serves it while editing.
docs:
	NO_MKDOCS_2_WARNING=1 $(VENV)/mkdocs build --strict

# The load generator's tests run in a temporary directory of their own, which must be empty
# after them (rmdir fails otherwise): a test that leaves a file behind fails make test.
test-rust:
	tmp=$$(mktemp -d /tmp/layerbench-load-tests.XXXXXX) && cd load && \
	TMPDIR=$$tmp $(CARGO) test --quiet --locked && \
	TMPDIR=$$tmp LAYERBENCH_LOAD_IO=io_uring $(CARGO) test --quiet --locked --tests && \
	TMPDIR=$$tmp LAYERBENCH_LOAD_IO=io_uring LAYERBENCH_LOAD_BATCH_WAIT=500 \
		$(CARGO) test --quiet --locked --tests && \
	{ rmdir $$tmp || { echo "the load generator's tests left files in $$tmp:"; ls $$tmp; exit 1; }; }

test-python:
	$(VENV)/pytest

# The wider run make test leaves out: every server x application pair and the long experiments
# (tests marked `wide`).
test-wide: setup-dev
	$(VENV)/pytest -m wide

# The wheel to publish, in dist/: built from the clone (the load generator compiled into it),
# then tagged manylinux_2_X by auditwheel, X the newest glibc symbol the program uses.
wheel: setup-dev
	rm -rf dist/build && PATH="$(HOME)/.cargo/bin:$(PATH)" $(VENV)/pip wheel --quiet --no-deps . -w dist/build
	PATH="$(abspath $(VENV)):$(PATH)" $(VENV)/auditwheel repair --wheel-dir dist dist/build/layerbench-*.whl
	rm -rf dist/build

clean:
	rm -rf .venv load/target ladder.json matrix.json dist
