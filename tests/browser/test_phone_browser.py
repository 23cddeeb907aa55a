"""The public pages on a phone (390x844) and a hall's screen (1920x1080) in headless Chromium (issue 28), on a
40-player Thai event (tests/desk/hallevent.py): nothing wider than the screen, no Thai name part or word of
the page broken across two lines, the standings' place, name, points and main tie-break in a phone's width
with many rows above the fold, and the player's card (a tap on a name) with the standings' own figures."""
from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import quote

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "desk"))

from hallevent import FIRST, LAST, build  # noqa: E402

from gameclock.organiser.desk import i18n  # noqa: E402
from gameclock.organiser.desk.app import create_app  # noqa: E402

# the widest element's overflow: the page itself, and every shown element's box (a table cut at the right
# edge is inside the page's width but its box passes the screen's edge)
OVERFLOW = """const w = window.innerWidth, out = [];
if (document.documentElement.scrollWidth > w) out.push(['page', document.documentElement.scrollWidth]);
for (const el of document.querySelectorAll('body *')) {
  const r = el.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) continue;            // not shown (display: none)
  if (r.right > w + 0.5 || r.left < -0.5) out.push([el.tagName + '.' + el.className, Math.round(r.left), Math.round(r.right)]);
}
return out;"""
# every unbreakable piece (a name's part, a word of the page): its text and the lines it is drawn on (the
# distinct tops of its text's rectangles: Range.getClientRects gives one a line)
PIECES = """return [...document.querySelectorAll('.np, .w')].filter(e => e.getClientRects().length).map(e => {
  const r = document.createRange(); r.selectNodeContents(e);
  return [e.textContent, new Set([...r.getClientRects()].map(x => Math.round(x.top))).size]; });"""
SHOWN_HEAD = """return [...document.querySelectorAll('[data-testid=standings-table] thead th')]
  .filter(th => th.getClientRects().length).map(th => th.textContent);"""
ROWS_ABOVE_FOLD = """return [...document.querySelectorAll('[data-testid=standings-row]')]
  .filter(r => r.getBoundingClientRect().bottom <= window.innerHeight).length;"""


@pytest.fixture
def hall(tmp_path, serve):
    info = build(tmp_path / "pc.db")
    app = create_app(tmp_path / "pc.db", stream_seconds=30)
    served = serve(app)
    yield served.url, info
    app.state.desk.store.close()


def pages(info) -> list[str]:
    ev = quote(info["event"])
    return ["/", f"/e/{ev}/standings", f"/e/{ev}/pairings/6", f"/e/{ev}/pairings/7",
            f"/e/{ev}/players/{info['ids'][info['names'][0]]}"]


@pytest.mark.parametrize("size", ["phone", "wide"])
@pytest.mark.parametrize("lang", ["th", "en"])
def test_nothing_wider_than_the_screen_and_no_thai_word_broken(browser, hall, size, lang):
    url, info = hall
    browser.resize(size)
    seen_parts: set[str] = set()
    for path in pages(info):
        # Thai: the event's own language, asked for by nobody; English: the reader's choice
        browser.get(url + path + ("?lang=en" if lang == "en" else ""))
        browser.js("return document.fonts.ready.then(() => true);")
        assert browser.js("return document.documentElement.lang;") == lang, path
        assert browser.js(OVERFLOW) == [], (size, lang, path)
        pieces = browser.js(PIECES)
        broken = [text for text, lines in pieces if lines != 1]
        assert not broken, (size, lang, path, broken)
        seen_parts |= {text for text, _ in pieces}
    # the names' parts measured are the names' own (first names in no dictionary: ณัฏฐ์ธยาน์, ชญานิษฐ์)
    assert set(FIRST) | set(LAST) <= seen_parts
    if lang == "th":
        # words of the page with known segmentations (a Thai reader's): each a piece of its own, on one line
        assert {"ชิง", "อันดับ", "ที่", "คะแนน", "เหรียญ", "ผลต่าง"} <= seen_parts, seen_parts


def test_the_standings_on_a_phone_show_place_name_points_and_spread_with_rows_above_the_fold(browser, hall):
    url, info = hall
    browser.resize("phone")
    browser.get(f"{url}/e/{quote(info['event'])}/standings")
    browser.js("return document.fonts.ready.then(() => true);")
    # XW-7: ranked by game points, then spread: the two figures a phone shows beside place and name
    assert browser.js(SHOWN_HEAD) == [i18n.TH[h] for h in ("Place", "Player", "GP", "Spread")]
    assert browser.js(ROWS_ABOVE_FOLD) >= 12       # eight before (a two-line title in large type, the wide table)
    # XW-11's note names the four of the final (the fixture's round 7): their names are names there too
    assert browser.js("return document.querySelectorAll('[data-testid=standings-notes] .np').length;") >= 8
    hint = "return document.querySelector('[data-testid=tap-hint]').getClientRects().length > 0;"
    assert browser.js(hint)                        # the phone says where the rest is
    browser.resize("wide")
    assert len(browser.js(SHOWN_HEAD)) == 11       # Place, Player and the nine figures of crossword.COLUMNS
    assert not browser.js(hint)


@pytest.mark.parametrize("size", ["phone", "wide"])
def test_the_card_a_tap_opens_has_the_standings_figures(browser, hall, size):
    url, info = hall
    browser.resize(size)
    for k in (0, 1, 39):        # the leader, the second, the last
        browser.get(f"{url}/e/{quote(info['event'])}/standings")
        row = f"[data-testid=standings-row]:nth-child({k + 1})"
        heads = browser.js("return [...document.querySelectorAll('[data-testid=standings-table] thead th')]"
                           ".map(th => th.textContent);")
        cells = browser.js(f"return [...document.querySelectorAll('{row} td')].map(td => td.textContent.trim());")
        want = dict(zip(heads, cells, strict=True))
        name = want.pop(i18n.TH["Player"])
        browser.driver.find_element("css selector", f"{row} a").click()       # the tap
        browser.wait_for("document.querySelector('[data-testid=card-figures]') !== null")
        assert browser.js("return document.querySelector('h1').textContent;").startswith(name)
        got = dict(browser.js("return [...document.querySelectorAll('[data-testid=card-figures] div')]"
                              ".map(d => [d.querySelector('dt').textContent, d.querySelector('dd').textContent.trim()]);"))
        assert got == want, (size, k, got, want)
        assert browser.js(OVERFLOW) == [], (size, k)
        if size == "phone" and k == 0:
            browser.screenshot("phone-card", "th")
