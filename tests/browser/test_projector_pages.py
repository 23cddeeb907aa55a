"""The projector pages through long tables (issue 17: "projector mode (large type, rotating between
standings, pairings and latest results)"): a 60-player event's standings on a 1366x768 screen are shown
page by page, as many rows as fit, "Page 1/N" then "Page 2/N" in the corner, every row on exactly one
page, never a scroll bar or a row cut at the bottom; a result stored meanwhile reaches the screen
live (server-sent events), without a reload, and the pages still fit."""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "standings"))

from kit import store_with, xw  # noqa: E402

from gameclock.organiser.desk.app import create_app  # noqa: E402

N = 60
NAMES = [f"ผู้เล่น {i:02d}" for i in range(1, N + 1)]   # Thai names: the Loma font's tall rows

SHOWN_ROWS = """return [...document.querySelectorAll('[data-testid=panel-standings] tbody > tr')]
  .filter(r => r.offsetParent !== null)
  .map(r => [r.dataset.player, r.getBoundingClientRect().bottom <= window.innerHeight]);"""
FITS = "(document.scrollingElement.scrollHeight <= window.innerHeight)"


def big_event(path: Path) -> None:
    """Event big, secondary Crossword, round 1: table k, player 2k-1 (left) 400 + k v player 2k 380
    (XW-8: +20 + k, under the cap): 30 winners, 30 losers, 60 standings rows."""
    store_with(path, [xw(k, "big", 1, k, NAMES[2 * k - 2], NAMES[2 * k - 1], 400 + k, 380) for k in range(1, 31)])


def page_state(browser) -> tuple[str, str, str, str]:
    return browser.js("const b = document.querySelector('[data-rotate]'); return [b.dataset.showing, "
                      "b.dataset.page, b.dataset.pages, document.querySelector('[data-testid=page-no]').textContent];")


def test_sixty_players_page_by_page_without_scrolling_and_live(browser, serve, tmp_path):
    db = tmp_path / "pc.db"
    big_event(db)
    app = create_app(db, interval=0.05, stream_seconds=60)
    served = serve(app)
    browser.get(f"{served.url}/e/big/projector?every=3&lang=en")
    browser.wait_for("document.querySelectorAll('[data-testid=panel-standings] tbody > tr').length === 60")
    browser.wait_for("document.querySelector('[data-rotate]').dataset.pages > 1")
    showing, page, pages, corner = page_state(browser)
    n = int(pages)
    assert showing == "panel-standings" and page == "1" and corner == f"Page 1/{n}"
    seen: list[str] = []
    browser.js("window.sameDocument = true;")
    for k in range(1, n + 1):
        browser.wait_for(f"document.querySelector('[data-rotate]').dataset.page === '{k}'", timeout=5)
        assert browser.js(f"return {FITS};"), f"page {k}/{n} scrolls"
        rows = browser.js(SHOWN_ROWS)
        # a page shows rows, or only the standings' notes (issue 28: the projector's head takes a line, and the
        # notes may go to a page of their own)
        notes = browser.js("return [...document.querySelectorAll('[data-testid=panel-standings] ul.notes > li')]"
                           ".filter(li => li.offsetParent !== null).length;")
        assert (rows or notes) and all(fits for _, fits in rows), f"page {k}/{n}: a row cut at the bottom"
        assert page_state(browser)[3] == f"Page {k}/{n}"
        seen += [p for p, _ in rows]
    assert sorted(seen) == sorted(NAMES) and len(seen) == N        # every row on exactly one page

    # then the next panel, from its first page, still without a scroll
    browser.wait_for("document.querySelector('[data-rotate]').dataset.showing === 'panel-pairings'", timeout=5)
    assert browser.js(f"return {FITS};")

    # a result stored now (round 2, table 1: player 02 450 v player 01 300) reaches the screen without a
    # reload. XW-7: player 02 has GP 2 and spread -21 + 150 = +129 (XW-8: under the cap 250), ahead of the
    # round-1 winners' +21 .. +50: first
    app.state.desk.store.put_result(xw(31, "big", 2, 1, NAMES[1], NAMES[0], 450, 300), "0" * 64, "kid0", "test")
    first = "document.querySelector('[data-testid=standings-row]').dataset.player === " + json.dumps(NAMES[1])
    browser.wait_for(first, timeout=5)
    browser.wait_for("document.querySelector('[data-rotate]').dataset.showing === 'panel-standings'", timeout=12)
    assert browser.js(f"return {FITS};") and all(fits for _, fits in browser.js(SHOWN_ROWS))
    assert browser.js("return window.sameDocument === true;")          # no reload
