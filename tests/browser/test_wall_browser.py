"""The hall's wall and the static export in headless Chromium (issue 28).

The projector at 1920x1080: its head shows the round, the time of day and the round clock (counting on by
itself), the organiser's announcements, the schools in the tables; an announcement added meanwhile reaches
it through the live stream without a reload; nothing wider than the screen (scrollWidth), with a hostile
announcement (a 200-character run without a space) among them.

The export opened from its folder (file://) on a phone (390x844): from index.html to the standings, the
players, a player's card by clicking; every link of every page visited stays in the folder; no address of
the desk is left; no element wider than the phone's screen."""
from __future__ import annotations

import shutil
import time
from pathlib import Path

from gameclock.cli import main
from gameclock.organiser.desk.app import create_app
from gameclock.organiser.desk.demo import PLAYERS, build_demo

# the widest element's right edge and the page's scroll width, against the viewport's width
TOO_WIDE = """const w = window.innerWidth;
const wide = [...document.querySelectorAll('body *')]
  .filter(e => e.offsetParent !== null || e.tagName === 'svg')
  .filter(e => e.tagName === 'svg' || !e.closest('svg'))  // an SVG clips its own content: its box is checked
  .filter(e => e.getBoundingClientRect().right > w + 0.5 || e.scrollWidth > w + 0.5)
  .map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right) + '/' + e.scrollWidth);
return [document.scrollingElement.scrollWidth, w, wide.slice(0, 5)];"""


def assert_fits(browser, where: str) -> None:
    scroll, width, wide = browser.js(TOO_WIDE)
    assert scroll <= width and not wide, f"{where}: the page is {scroll} px wide on a {width} px screen: {wide}"


def test_the_projector_shows_round_time_schools_and_announcements_live(browser, serve, tmp_path):
    db = tmp_path / "pc.db"
    build_demo(db)
    app = create_app(db, interval=0.05, stream_seconds=60)
    store = app.state.desk.store
    store.start_round("demo", 2, time.time_ns() - (42 * 60 + 5) * 1_000_000_000, "organiser")   # 0:42:05 ago
    store.add_announcement("demo", "พักกลางวัน 12:00-13:00 น. ที่โรงอาหาร · Lunch 12:00-13:00 in the canteen", "organiser")
    store.add_announcement("demo", "ก" * 200, "organiser")   # a hostile run: one 200-character word
    served = serve(app)
    browser.resize("wide")
    browser.get(f"{served.url}/e/demo/projector?every=30&lang=th")
    browser.wait_for_text("[data-testid=wall-round]", "รอบ 2")
    browser.wait_for("document.querySelectorAll('[data-testid=panel-standings] [data-testid=school]').length === 8")
    browser.wait_for("document.fonts.status === 'loaded'")
    clock = browser.text("[data-round-clock]")
    assert clock.startswith("0:42:"), clock
    browser.wait_for(f"document.querySelector('[data-round-clock]').textContent !== {clock!r}", timeout=3)  # it counts
    assert browser.text("[data-testid=wall-time]").count(":") == 1
    news = browser.js("return [...document.querySelectorAll('[data-testid=announcement]')].map(e => e.textContent);")
    assert news[0].startswith("พักกลางวัน") and news[1] == "ก" * 200
    shown = {r[0]: r[1] for r in browser.js(
        "return [...document.querySelectorAll('[data-testid=panel-standings] [data-testid=standings-row]')]"
        ".map(r => [r.dataset.player, r.querySelector('[data-testid=school]').textContent]);")}
    assert shown == {name: school for _id, name, _latin, school in PLAYERS}
    assert_fits(browser, "projector, standings")
    assert "demo0000000000c" not in browser.js("return document.body.innerText;")   # no internal id shown
    Path("/tmp/projector-wall-th-1920.png").write_bytes(browser.screenshot("projector-wall", "th", full_page=False).read_bytes())

    # the organiser adds one: on the wall without a reload, the pages laid out again, still no scroll
    browser.js("window.sameDocument = true;")
    store.add_announcement("demo", "Round 3 starts at 13:15", "organiser")
    browser.wait_for("document.querySelectorAll('[data-testid=announcement]').length === 3", timeout=5)
    assert browser.js("return window.sameDocument === true;")
    assert browser.js("return document.scrollingElement.scrollHeight <= window.innerHeight;")
    assert_fits(browser, "projector, three announcements")
    # and the pairings panel with its two school columns fits too
    browser.js("document.querySelectorAll('[data-panel]').forEach(p => p.classList.toggle('shown', "
               "p.dataset.testid === 'panel-pairings'));")
    browser.wait_for("document.querySelectorAll('[data-testid=panel-pairings] [data-testid=school]').length === 8")
    assert_fits(browser, "projector, pairings")


def test_the_export_opens_from_its_folder_and_its_links_stay_inside(browser, tmp_path):
    db = tmp_path / "pc.db"
    build_demo(db)
    out = tmp_path / "copied to a host" / "site"
    assert main(["export-site", str(tmp_path / "site"), "--event", "demo", "--db", str(db), "--lang", "th"]) == 0
    shutil.copytree(tmp_path / "site", out)   # the folder copied elsewhere still works: nothing absolute
    folder = out.resolve().as_uri() + "/"
    browser.resize("phone")
    browser.get(folder + "index.html")

    def links_stay_inside(where: str) -> None:
        hrefs = browser.js("return [...document.querySelectorAll('[href], [src]')].map(e => e.href || e.src);")
        assert hrefs, where
        outside = [h for h in hrefs if not h.startswith(folder)]
        assert not outside, f"{where}: links outside the folder: {outside}"
        text = browser.js("return document.documentElement.outerHTML;")
        assert "127.0.0.1" not in text and "export.invalid" not in text, where
        assert not browser.js("return document.scripts.length;"), where
        # the stylesheet and its Thai font came from the folder
        assert browser.js("return getComputedStyle(document.body).fontFamily;").startswith("Loma"), where
        browser.js("return document.fonts.ready.then(() => true);")
        assert browser.js("return [...document.fonts].map(f => f.family + ':' + f.status);") == ["Loma:loaded"] * 2
        assert_fits(browser, where)  # the phone layout: nothing wider than the screen, tables too

    links_stay_inside("index")
    browser.driver.find_element("css selector", "[data-testid=events] a").click()
    browser.wait_for("location.pathname.endsWith('/standings.html')")
    links_stay_inside("standings")
    browser.driver.find_element("css selector", "[data-testid=public-nav] a[href='players.html']").click()
    browser.wait_for("location.pathname.endsWith('/players.html')")
    links_stay_inside("players")
    assert browser.js("return document.querySelectorAll('svg.segno').length;") == 0   # the QR codes point at the desk
    # player 1's row of the players' list (alphabetical since issue 28's find-my-table work)
    browser.driver.find_element("css selector", "[data-testid=player-row][data-player='1'] a").click()
    browser.wait_for("location.pathname.endsWith('/players/1.html')")
    browser.wait_for("document.fonts.status === 'loaded'")
    assert PLAYERS[0][1] in browser.js("return document.body.innerText;")
    links_stay_inside("player 1's card")
    # and back to a round's pairings from the card's games (its round's link), then the index
    browser.driver.find_element("css selector", "[data-testid=public-nav] a[href='../pairings/2.html']").click()
    browser.wait_for("location.pathname.endsWith('/pairings/2.html')")
    assert browser.js("return document.querySelectorAll('[data-testid=pairing-row]').length;") == 4
    links_stay_inside("round 2's pairings")
    browser.screenshot("export-player", "th")
