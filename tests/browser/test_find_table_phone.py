"""Find my table on a phone (issue 28), in headless Chromium at 390x844: the search box atop a public page
finds a player by a part of a Thai name and by a Latin name, answering with the table, the opponent and
the side, without JavaScript's help (a GET form); the event's header stays two lines; no element of the
find page, the players' list, the QR sheets or a table's page is wider than the phone's screen.

The demo event (desk/demo.py) is the input: round 2, table 2 ฟ้าใส ใจงาม (left) v สมชาย ใจดี (Somchai
Jaidee, id 1). The pages are looked at on a wide screen (1920x1080) too."""
from __future__ import annotations

from gameclock.organiser.desk.app import create_app
from gameclock.organiser.store import Store

# every element (of `arguments[0]`, a CSS selector) inside the viewport's width as the reader sees it: an
# element cut by a box that hides its overflow (the header's ellipsis, a table scrolling in its box) counts
# as wide as that box; and nothing to scroll sideways
TOO_WIDE = """const clipped = e => { for (let a = e.parentElement; a; a = a.parentElement) {
    if (getComputedStyle(a).overflowX !== 'visible') return a; } return null; };
  return [...document.querySelectorAll(arguments[0] || 'body *')].filter(e => {
    const box = clipped(e) || e; const r = box.getBoundingClientRect();
    return r.width > 0 && (r.right > innerWidth + 0.5 || r.left < -0.5); })
  .map(e => e.tagName + '.' + e.className + ' ' + (e.textContent || '').slice(0, 30));"""
SIDEWAYS = "return document.scrollingElement.scrollWidth > window.innerWidth;"
HEADER_LINES = """return [...document.querySelectorAll('.event-header p')].map(p =>
  Math.round(p.getBoundingClientRect().height / parseFloat(getComputedStyle(p).lineHeight)));"""


def search(browser, text: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    box = browser.driver.find_element(By.CSS_SELECTOR, "[data-testid=find-q]")
    box.clear()
    box.send_keys(text, Keys.ENTER)
    browser.wait_for("location.pathname.endsWith('/find') && document.readyState === 'complete'")


def test_find_my_table_on_a_phone(browser, serve, tmp_path):
    db = tmp_path / "demo.db"
    app = create_app(db, demo=True)
    with Store(db) as s:   # a header as an organiser types it, long enough to need cutting on a phone
        s.set_event_header("demo", {"title": "การแข่งขันครอสเวิร์ดชิงแชมป์ประเทศไทย ประจำปี 2567 รอบคัดเลือกภาคกลาง",
                                    "venue": "ศูนย์การค้าเซ็นทรัลพระราม 9 ชั้น 5", "dates": "2-3 พฤศจิกายน 2567",
                                    "arbiters": "อาจารย์มาลี ศรีสุข, อาจารย์บุญมี มีสุข",
                                    "round_times": "1 09:00 · 2 10:00 · 3 11:00 · 4 13:00 · 5 14:00"}, "organiser")
    served = serve(app)
    browser.resize("phone")
    browser.get(f"{served.url}/e/demo/standings?lang=th")
    assert browser.js(HEADER_LINES) == [1, 1]          # two lines, each one line high
    # the header and the search box (the standings' own table is another helper's: issue 28's phone pages)
    assert browser.js(TOO_WIDE, ".event-header, .event-header *") == []

    search(browser, "ใจดี")                            # a part of a Thai name
    found = browser.js("return [...document.querySelectorAll('[data-testid=found]')].map(e => [e.dataset.player, e.textContent]);")
    assert [pid for pid, _ in found] == ["1"]
    assert "โต๊ะ 2" in found[0][1] and "ฟ้าใส ใจงาม" in found[0][1] and "ฝั่งขวา" in found[0][1]
    assert browser.js(TOO_WIDE, None) == [] and not browser.js(SIDEWAYS)
    browser.screenshot("find", "th", full_page=False)

    search(browser, "somchai")                         # a Latin name, any case
    assert browser.js("return [...document.querySelectorAll('[data-testid=found]')].map(e => e.dataset.player);") == ["1"]
    browser.driver.find_element("css selector", "[data-testid=found] a").click()   # to the card
    browser.wait_for("location.pathname === '/e/demo/players/1'")

    pages = ("/e/demo/players?lang=th", "/e/demo/players?lang=en", "/e/demo/qr/players", "/e/demo/qr/round/2",
             "/e/demo/pairings/2/table/2", "/e/demo/find?q=%E0%B9%83%E0%B8%88&lang=en")
    for size, path in [("phone", p) for p in pages] + [("wide", p) for p in pages]:   # 390x844, then 1920x1080
        browser.resize(size)
        browser.get(served.url + path)
        assert browser.js(TOO_WIDE, None) == [], (size, path)
        assert not browser.js(SIDEWAYS), (size, path)
        # a name breaks only between its parts: แก้วงาม (ดวงใจ's family name) and วงศ์ทอง each on one line
        assert browser.js("return [...document.querySelectorAll('.np')].filter(e => e.getClientRects().length > 1)"
                          ".map(e => e.textContent);") == [], path


# what print keeps of a page: (is the menu shown, is the search box shown, the body's colours)
PRINTED = """const shown = s => { const e = document.querySelector(s); return !!e && getComputedStyle(e).display !== 'none'; };
  const b = getComputedStyle(document.body);
  return [shown('header.top'), shown('.find-form'), b.color, b.backgroundColor,
          [...document.querySelectorAll('thead')].every(h => getComputedStyle(h).display === 'table-header-group'),
          [...document.querySelectorAll('tbody tr')].every(r => getComputedStyle(r).breakInside === 'avoid')];"""


def test_printed_pages_keep_their_content_black_on_white(browser, serve, tmp_path):
    """Pairings, standings, the players' list and the crosstable (the wall chart) printed: no menu, no search
    box, black on white, a table's head repeated on each sheet and its rows never split (desk.css @media print)."""
    app = create_app(tmp_path / "demo.db", demo=True)
    served = serve(app)
    browser.get(f"{served.url}/e/demo/pairings/2")
    assert browser.js(PRINTED)[:2] == [True, True]      # on screen: the menu and the search box
    browser.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    for path in ("/e/demo/pairings/2", "/e/demo/standings", "/e/demo/players", "/e/demo/crosstable"):
        browser.get(served.url + path)
        assert browser.js(PRINTED) == [False, False, "rgb(0, 0, 0)", "rgb(255, 255, 255)", True, True], path
