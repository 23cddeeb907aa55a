"""The final standings page and the prize list in headless Chromium (issue 25), over the hand-worked
13-player XW-10 event (tests/organiser_event/finalkit.py build_xw10, Thai names and schools): on a phone
(390 px) and on a hall's full-HD screen (1920 px), in Thai and in English, the page never scrolls
sideways (a wide table scrolls inside itself), every Thai word is in the shipped font, and printed (the
print media) the prize list shows its pages only, one per level, without the desk's menu. Screenshots
NAME-LANG-SIZE.png into $GAMECLOCK_SCREENSHOTS (look at them)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "organiser_event"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "standings"))

from finalkit import THAI, build_xw10  # noqa: E402

from gameclock.organiser.desk.app import create_app  # noqa: E402
from gameclock.organiser.store import Store  # noqa: E402

EV = "crossword-m"
PASSWORD = "final standings"
NO_SIDEWAYS = "(document.scrollingElement.scrollWidth <= window.innerWidth)"
# P08-P13 at the primary level, the others secondary: the prize list prints two pages
LEVELS = {f"P{i:02d}": "primary" for i in range(8, 14)}


def log_in(browser, url: str) -> None:
    from selenium.webdriver.common.by import By

    def submit(fields: dict[str, str]) -> None:
        el = None
        for name, value in fields.items():
            el = browser.driver.find_element(By.NAME, name)
            el.send_keys(value)
        assert el is not None
        el.submit()

    browser.get(f"{url}/setup")
    submit({"name": "organiser", "password": PASSWORD, "again": PASSWORD})
    browser.wait_for("location.pathname === '/login'")
    submit({"password": PASSWORD})    # the name: offered, this browser made the account
    browser.wait_for("location.pathname.startsWith('/admin')")


def test_final_standings_and_prize_list_on_a_phone_and_a_wide_screen(browser, serve, tmp_path):
    db = tmp_path / "pc.db"
    with Store(db) as store:
        build_xw10(store, EV, thai=True, levels=LEVELS)
    app = create_app(db, interval=0.05, stream_seconds=5)
    served = serve(app)
    log_in(browser, served.url)
    shots = []
    for size in ("phone", "wide"):
        browser.resize(size)
        for lang in ("th", "en"):
            browser.get(f"{served.url}/e/{EV}/final?lang={lang}")
            browser.wait_for("document.readyState === 'complete'")
            rows = browser.js("return [...document.querySelectorAll('[data-testid=final-row]')]"
                              ".map(r => [r.dataset.place, r.dataset.player, r.dataset.medal]);")
            # XW-10: the final's winner P05 first, the final's loser P03, third place P01, then P07
            assert [r[1] for r in rows[:4]] == [THAI[p][0] for p in ("P05", "P03", "P01", "P07")]
            assert rows[4] == ["5", THAI["P12"][0], "gold"]
            assert browser.js(f"return {NO_SIDEWAYS};"), f"the final standings scroll sideways at {size}"
            shots.append(browser.screenshot("final", lang))
            browser.get(f"{served.url}/admin/e/{EV}/prizes?lang={lang}")
            browser.wait_for("document.readyState === 'complete'")
            assert browser.js("return document.querySelectorAll('[data-testid=prize-page]').length;") == 2
            assert browser.js(f"return {NO_SIDEWAYS};"), f"the prize list scrolls sideways at {size}"
            shots.append(browser.screenshot("prizes", lang))
    # printed: no menu, no Print button, each level's page ends with a page break
    browser.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        assert browser.js("return getComputedStyle(document.querySelector('header.top')).display;") == "none"
        assert browser.js("return document.querySelector('[data-print]').getClientRects().length;") == 0
        breaks = browser.js("return [...document.querySelectorAll('[data-testid=prize-page]')]"
                            ".map(p => getComputedStyle(p).breakAfter);")
        assert breaks == ["page", "auto"]
        shots.append(browser.screenshot("prizes-print", "en"))
    finally:
        browser.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    assert all(p.stat().st_size > 10_000 for p in shots)
