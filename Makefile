# gameclock — every target sets up .venv on first use.
#   make sim     run the clock in this terminal (keys act as the buttons)
#   make test    install what the suite needs, check lint, types and the import contracts, run the suite
#   make bench   print the benchmark figures as JSON
#   make desk    the organiser's desk on a demo event: open http://127.0.0.1:8017/ (ARGS=--db FILE for yours)
#   sudo make install   on the Pi: /opt/gameclock, its venv, the gameclock user, the systemd units
#                       (systemd/README.md; ARGS=--dry-run prints the steps)
#   sudo make install-pc   on the organiser's PC: docked clocks start their receivers (udev rule, unit)
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
# System tools the test suite drives: tmux (the `make sim` test), systemd-analyze (unit check),
# shellcheck (the install scripts), udevadm (the udev rule check), chromium and chromedriver (the web
# pages' tests in headless Chromium, tests/browser/: Selenium drives Debian's chromium through Debian's
# chromium-driver, built from the same source, so their versions always match). No font package: the
# browser tests give Chromium only the shipped Loma (bench/browser.py).
SYSTOOLS := tmux:tmux systemd-analyze:systemd shellcheck:shellcheck udevadm:udev chromium:chromium chromedriver:chromium-driver
# `make test` runs the suite on this many pytest-xdist workers: one per CPU and one more, as a good part
# of the suite waits on real processes (the dock's end-to-end runs, the simulator, the daemon).
# TEST_JOBS=0 runs it in one process. How the tests share the workers: tests/conftest.py.
TEST_JOBS ?= $(shell echo $$(( $$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1) + 1 )))

.PHONY: sim test lint bench desk venv sysdeps install install-pc clean

venv: $(STAMP)

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "gameclock needs Python 3.11 or newer"'
	@test -x $(PY) || $(PYTHON) -m venv $(VENV) || { \
	  echo "error: could not create $(VENV); install it with: sudo apt-get install python3-venv" >&2; exit 1; }
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	@touch $@

sim: $(STAMP)
	$(VENV)/bin/gameclock sim $(ARGS)

sysdeps:
	@missing=""; for pair in $(SYSTOOLS); do tool=$${pair%%:*}; pkg=$${pair##*:}; \
	  command -v $$tool >/dev/null 2>&1 || missing="$$missing $$pkg"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || exit 1; \
	  else \
	    echo "error: the test suite needs these Debian packages:$$missing" >&2; \
	    echo "       install them with: sudo apt-get install$$missing" >&2; exit 1; \
	  fi; \
	fi

# ruff (pyflakes, bugbear, pyupgrade, isort), mypy (strict on core/ and dock/), the rooms' import contracts
lint: $(STAMP)
	$(VENV)/bin/ruff check firmware bench tests
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

test: $(STAMP) sysdeps lint
	$(PY) -m pytest -n $(TEST_JOBS) --dist loadgroup

bench: $(STAMP)
	$(PY) -m bench

desk: $(STAMP)
	$(VENV)/bin/gameclock desk $(if $(ARGS),$(ARGS),--demo)

# No .venv here: the service gets its own in /opt/gameclock (and this runs as root).
install:
	bash systemd/install.sh $(ARGS)

install-pc:
	bash systemd/install-pc.sh $(ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
