"""The browser harness itself (tests/browser/conftest.py, bench/browser.py), proved on bench/livepage.py's
DemoApp before the desk's pages use it: Thai in the served Loma web font (the platform font Chromium
really drew the glyphs with, not only what the CSS asks), a form's POST, a server-sent event that changes
the page after it loaded without a reload, both window sizes' screenshots, and the stored-to-shown
measure. A missing chromium fails and names the Debian packages."""
from __future__ import annotations

import re
import struct
from pathlib import Path

import pytest

from bench import browser as harness
from bench.livepage import DEMO_READY, FONT_FAMILY, TEXT, DemoApp, live_update_ms

THAI_NAME = "สมชาย ใจดี"  # a name with vowels above and below


def open_demo(browser, serve, lang="th"):
    app = DemoApp()
    served = serve(app)
    browser.get(f"{served.url}/?lang={lang}")
    browser.wait_for_text("#title", TEXT[lang]["title"])
    return app, served


def platform_fonts(browser, selector):
    """The fonts Chromium drew the element's text with: [(family, is a web font, glyphs)]."""
    d = browser.driver
    d.execute_cdp_cmd("DOM.enable", {})
    d.execute_cdp_cmd("CSS.enable", {})
    root = d.execute_cdp_cmd("DOM.getDocument", {})["root"]["nodeId"]
    node = d.execute_cdp_cmd("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    fonts = d.execute_cdp_cmd("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    return [(f["familyName"], f["isCustomFont"], f["glyphCount"]) for f in fonts]


def png_size(path):
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", data[16:24])


def test_thai_is_drawn_with_the_served_loma(browser, serve):
    app, _ = open_demo(browser, serve, "th")
    assert browser.js("return document.fonts.ready.then(() => true);")
    assert "GET /fonts/Loma.ttf" in app.requests and "GET /fonts/Loma-Bold.ttf" in app.requests  # h1 is bold
    faces = browser.js("return [...document.fonts].map(f => [f.family.replaceAll('\"', ''), f.status]);")
    assert [FONT_FAMILY, "loaded"] in faces, faces
    assert browser.js(f"return document.fonts.check('16px {FONT_FAMILY}', arguments[0]);", TEXT["th"]["lead"])
    for selector in ("#title", "#lead", "label", "#send"):
        fonts = platform_fonts(browser, selector)
        # every glyph from the web font (isCustomFont): none from a fallback, so no tofu either
        assert fonts and all(custom for _, custom, _ in fonts), (selector, fonts)
        assert {family for family, _, _ in fonts} == {"Loma"}, (selector, fonts)


@pytest.mark.parametrize("lang", ["th", "en"])
def test_screenshots_at_both_sizes(browser, serve, lang):
    open_demo(browser, serve, lang)
    for size, (width, height) in harness.SIZES.items():
        browser.resize(size)
        assert browser.js("return window.innerWidth;") == width
        path = browser.screenshot("harness-demo", lang)
        assert path.name == f"harness-demo-{lang}-{size}.png"
        w, h = png_size(path)
        assert w == width and h >= height, (path, w, h)
    with pytest.raises(AssertionError, match="not 'xx'"):
        browser.screenshot("harness-demo", "xx")  # the picture's language is the page's


def test_form_post_stores_a_row_and_shows_it(browser, serve):
    app, served = open_demo(browser, serve, "th")
    browser.driver.find_element("css selector", "#player").send_keys(THAI_NAME)
    browser.driver.find_element("css selector", "#send").click()
    browser.wait_for_text("#rows", THAI_NAME)
    assert app.rows == [THAI_NAME]
    assert browser.driver.current_url == f"{served.url}/?lang=th"  # the POST's 303 back to the page
    assert "POST /rows" in app.requests


def test_server_sent_event_updates_the_page_without_a_reload(browser, serve):
    app, served = open_demo(browser, serve, "en")
    browser.js("window.__same_page = true;")  # a reload would lose it
    browser.wait_for(DEMO_READY)  # its EventSource is open
    pages = app.requests.count("GET /")
    assert "pushed-after-load" not in browser.text("#rows")
    # stored by another client (an HTTP POST from here, as the desk's receiver stores a result)
    assert harness.post_form(f"{served.url}/rows", {"player": "pushed-after-load"}) == 303
    waited = browser.wait_for_text("#rows", "pushed-after-load", timeout=5)
    assert waited < 5
    assert browser.js("return window.__same_page === true;"), "the page was reloaded"
    assert app.requests.count("GET /") == pages
    with pytest.raises(AssertionError, match="did not show in '#rows' within 0.2 s"):
        browser.wait_for_text("#rows", "never stored", timeout=0.2)


def test_live_update_measure_on_the_demo(browser, serve):
    app = DemoApp()
    served = serve(app)

    def store(token):
        assert harness.post_form(f"{served.url}/rows", {"player": token}) == 303

    figures = live_update_ms(browser, f"{served.url}/?lang=th", store, "#rows", samples=10, prefix="demo",
                             ready=DEMO_READY)
    assert figures["demo_live_update_samples"] == 10
    assert 0 < figures["demo_live_update_ms_median"] <= figures["demo_live_update_ms_p95"]
    assert figures["demo_live_update_ms_p95"] < 2000, figures  # generous: a loaded 2-core CI machine
    assert len(app.rows) == 10


def test_serve_stops_with_an_open_event_stream(browser):
    served = harness.serve(DemoApp())
    browser.get(f"{served.url}/?lang=th")
    browser.wait_for_text("#title", TEXT["th"]["title"])
    served.stop(timeout=5)  # the page's EventSource is still open: cut, not waited for
    assert not served.thread.is_alive()


def test_a_missing_chromium_fails_naming_the_packages(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # neither chromium nor chromedriver on it
    with pytest.raises(harness.Missing, match="sudo apt-get install chromium chromium-driver"):
        harness.Browser()


def test_make_test_installs_chromium_and_its_driver():
    """`make test` as root installs both Debian packages (the Makefile's SYSTOOLS), else names them."""
    makefile = (Path(__file__).resolve().parents[2] / "Makefile").read_text()
    systools = re.search(r"^SYSTOOLS :=(.*)$", makefile, re.M).group(1).split()
    assert {"chromium:chromium", "chromedriver:chromium-driver"} <= set(systools)
