"""A live page misses nothing across its stream's end: the desk ends each server-sent-events stream
after `stream_seconds` and the browser opens a new one (`retry`, 2 s), which tells only what changes
from then on. A result stored while no stream was open must still reach the projector (found by a
fresh-eyes review: it was missed until the next change)."""
from __future__ import annotations

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
