"""The browser tests: the organiser's web pages in headless Chromium (bench/browser.py says how it runs).

Fixtures:
  browser        a headless Chromium at the laptop's size (`browser.resize("phone")` for the phone's), with
                 `browser.wait_for_text(selector, text, timeout)` (polls: live updates without a reload)
                 and `browser.screenshot(name, lang)` (NAME-LANG-SIZE.png into $GAMECLOCK_SCREENSHOTS, the
                 docs' pictures; without it into this test's tmp_path, so the code path always runs).
  serve          serve(app) runs any ASGI app with uvicorn on 127.0.0.1 (a free port) in a thread, once it
                 answers; the `Served` it returns has `.url`. Stopped at the test's end.

Nothing here skips: without chromium, chromium-driver, selenium or uvicorn a test FAILS and says what to
install (`make test` as root installs the Debian packages; the `dev` extra has the Python ones).

Every test under tests/browser/ is in the xdist group "browser": they run one at a time (one Chromium at a
time on a 2-core machine: a page's live-update timing is not a contest with another Chromium's start),
beside the rest of the suite (tests/conftest.py).
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from bench.browser import Browser, Missing, Served
from bench.browser import serve as _serve

HERE = Path(__file__).resolve().parent


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config, items):
    for item in items:
        if HERE in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.xdist_group("browser"))


@pytest.fixture
def browser(tmp_path, serve):  # serve: an app outlives the browser on it (stopped after it)
    folder = os.environ.get("GAMECLOCK_SCREENSHOTS")
    try:
        b = Browser("laptop", Path(folder) if folder else tmp_path / "screenshots")
    except Missing as e:
        pytest.fail(str(e), pytrace=False)
    yield b
    b.quit()


@pytest.fixture
def serve():
    servers: list[Served] = []

    def start(app) -> Served:
        try:
            s = _serve(app)
        except Missing as e:
            pytest.fail(str(e), pytrace=False)
        servers.append(s)
        return s

    yield start
    for s in servers:
        s.stop()
