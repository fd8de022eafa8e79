# The README's commands. `make demo` and `make test` install what they need first.
.PHONY: demo test test-wide setup setup-dev lint docs test-rust test-python wheel clean

CARGO := PATH="$(HOME)/.cargo/bin:$(PATH)" cargo
VENV := .venv/bin

demo: setup
	$(VENV)/layerbench ladder --json ladder.json

test: setup-dev lint docs test-rust test-python

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
