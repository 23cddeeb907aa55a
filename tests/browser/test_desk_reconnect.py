"""A live page misses nothing across its stream's end: the desk ends each server-sent-events stream
after `stream_seconds` and the browser opens a new one (`retry`, 2 s), which tells only what changes
from then on. A result stored while no stream was open must still reach the projector (found by a
fresh-eyes review: it was missed until the next change)."""
from __future__ import annotations

import time

from bench import standings as event_gen
from bench.desk import RESULTS_AREA, result_writer
from gameclock.organiser.desk.app import create_app

# every EventSource the page makes marks its hellos and its end (an error: the stream closed)
HOOK = """
(() => {
  const Original = window.EventSource;
  window.EventSource = function (url, options) {
    const source = new Original(url, options);
    source.addEventListener("hello", () => { document.documentElement.dataset.hello = "yes"; });
    source.addEventListener("error", () => { window.__desk_stream_closed = true; });
    return source;
  };
  window.EventSource.prototype = Original.prototype;
})();
"""


def test_a_result_stored_between_two_streams_reaches_the_projector(tmp_path, browser, serve):
    db = tmp_path / "pc.db"
    event_gen.load(str(db), 10, 2)
    app = create_app(db, interval=0.05, stream_seconds=1.0)
    served = serve(app)
    put, close = result_writer(str(db), 10, 2)
    try:
        browser.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": HOOK})
        browser.get(f"{served.url}/e/{event_gen.EVENT}/projector")
        browser.wait_for("document.documentElement.dataset.hello === 'yes'", timeout=10)
        browser.js("window.__loaded = true; document.documentElement.dataset.hello = '';")
        # the stream ends after 1 s; the browser waits 2 s before the next: store the result then
        browser.wait_for("window.__desk_stream_closed === true", timeout=10)
        put("Reconnect Token")
        browser.wait_for_text(RESULTS_AREA, "Reconnect Token", timeout=10)
        assert browser.js("return window.__loaded === true;")   # no reload: the same page
        assert browser.js("return document.documentElement.dataset.hello;") == "yes"  # by a new stream
    finally:
        close()


def wait_streams(app, n: int, seconds: float = 5.0) -> dict:
    """The desk's open streams (by address) once they are `n` in all; AssertionError after `seconds`."""
    end = time.monotonic() + seconds
    while sum(app.state.desk.streams.values()) != n:
        assert time.monotonic() < end, f"{dict(app.state.desk.streams)} open, not {n}"
        time.sleep(0.05)
    return dict(app.state.desk.streams)


def test_a_live_page_kept_for_the_back_button_holds_no_stream_and_is_live_again(tmp_path, browser, serve):
    """Found by the bad day's acceptance test (test_bad_day.py): the desk could not stop (its live streams
    still open) long after the browser had left its live pages. The browser keeps a page it leaves in its
    back-forward cache, frozen, and the page's stream stayed open there: one of the address's
    MAX_STREAMS_A_CLIENT places (a hall's phones share one address) and a poll a stream, for nobody. Now
    the page closes its stream when it is put away and opens a new one when it is shown again, its live
    areas fetched again (a result stored meanwhile is shown)."""
    db = tmp_path / "pc.db"
    event_gen.load(str(db), 10, 2)
    app = create_app(db, interval=0.05)
    served = serve(app)
    put, close = result_writer(str(db), 10, 2)
    try:
        browser.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": HOOK})
        browser.get(f"{served.url}/e/{event_gen.EVENT}/projector")
        browser.wait_for("document.documentElement.dataset.hello === 'yes'", timeout=10)
        browser.js("window.__loaded = true; document.documentElement.dataset.hello = '';")
        wait_streams(app, 1)
        browser.get(f"{served.url}/e/{event_gen.EVENT}/players")   # no live area: no stream of its own
        wait_streams(app, 0)
        put("Back Button Token")
        browser.driver.back()
        assert browser.js("return window.__loaded === true;")   # the page kept, not loaded again
        browser.wait_for("document.documentElement.dataset.hello === 'yes'", timeout=10)
        browser.wait_for_text(RESULTS_AREA, "Back Button Token", timeout=10)
        wait_streams(app, 1)
    finally:
        close()
