"""The printable sheets of a published round (issue 16): the HTML parsed back -- every table in
order with its players' Thai and Latin names, the byes, one score slip per table, the event's
language, a print stylesheet for A4, nothing fetched from outside, the Thai font beside the pages --
and the QR codes of the result pages (segno, when installed; a clear error when not)."""
from __future__ import annotations

import sys
from html.parser import HTMLParser

import pytest
from evkit import NAMES, PLAYERS_CSV

from gameclock.organiser import event as events
from gameclock.organiser import sheets
from gameclock.organiser.store import Store

EV = "xw-open"


class Page(HTMLParser):
    """Rows (tr.board: data-table and each player cell's spans), slips, byes, every attribute naming a
    resource, the <html> lang and the style text."""

    def __init__(self, text: str):
        super().__init__()
        self.rows: list[dict] = []
        self.slips: list[dict] = []
        self.byes: list[list[tuple[str, str, str]]] = []
        self.links: list[str] = []
        self.lang = ""
        self.style = ""
        self.svgs = 0
        self._span: tuple[str, str] | None = None
        self._target: list | None = None
        self._in_style = False
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("src", "href"):
            if key in a:
                self.links.append(a[key])
        cls = a.get("class", "")
        if tag == "html":
            self.lang = a.get("lang", "")
        elif tag == "style":
            self._in_style = True
        elif tag == "svg":
            self.svgs += 1
        elif tag == "tr" and cls == "board":
            self.rows.append({"table": int(a["data-table"]), "left": [], "right": []})
        elif tag == "section" and cls == "slip":
            self.slips.append({"table": int(a["data-table"]), "left": [], "right": []})
        elif tag == "li" and cls == "bye":
            self.byes.append([])
            self._target = self.byes[-1]
        elif tag in ("td", "div") and cls.startswith(("player ", "side ")):
            holder = self.slips[-1] if tag == "div" else self.rows[-1]
            self._target = holder[cls.split()[1]]
        elif tag == "span" and cls in ("name", "latin", "campus") and self._target is not None:
            self._span = (cls, a.get("lang", ""))

    def handle_endtag(self, tag):
        if tag == "style":
            self._in_style = False
        if tag == "span":
            self._span = None

    def handle_data(self, data):
        if self._in_style:
            self.style += data
        elif self._span is not None and self._target is not None:
            self._target.append((self._span[0], self._span[1], data))


@pytest.fixture
def published(tmp_path, fold_system):
    store = Store(tmp_path / "pc.db")
    path = tmp_path / "players.csv"
    path.write_text(PLAYERS_CSV, encoding="utf-8")
    events.create_event(store, EV, fold_system, events.load_players(path), language="th", preset="crossword",
                        options={"shuffle": False, "game": 2})
    events.draw(store, EV, seed=5)
    events.edit(store, EV, swaps=[(1, 2)])  # table 1: Anan Wong v บุญมี, table 2: สมชาย v มาลี, Chai's bye
    events.publish(store, EV)
    yield store
    store.close()


def write(store, folder, url=None):
    ev = store.event(EV)
    rnd = events.round_of(store, EV)
    return sheets.write_sheets(folder, ev, rnd, events.players_of(store, EV), url)


def test_the_pairing_sheet_has_every_table_in_order_with_thai_and_latin_names(published, tmp_path):
    pairing_page, slips_page = write(published, tmp_path / "out")
    assert pairing_page.name == "xw-open-r1-pairings.html" and slips_page.name == "xw-open-r1-slips.html"
    page = Page(pairing_page.read_text(encoding="utf-8"))
    assert page.lang == "th"  # the event's language: Thai headings
    assert "ประกบคู่" in pairing_page.read_text(encoding="utf-8")
    assert [r["table"] for r in page.rows] == [1, 2]
    assert page.rows[0]["left"] == [("name", "en", "Anan Wong"), ("campus", "en", "Satit School")]
    assert page.rows[0]["right"] == [("name", "th", NAMES["4"]), ("latin", "en", "Boonmee Meesuk")]
    assert page.rows[1]["left"] == [("name", "th", NAMES["1"]), ("latin", "en", "Somchai Jaidee"),
                                    ("campus", "th", "โรงเรียนสาธิต")]
    assert page.rows[1]["right"] == [("name", "th", NAMES["2"]), ("latin", "en", "Malee Srisuk"),
                                     ("campus", "en", "Satit School")]
    assert page.byes == [[("name", "en", "Chai Dee")]]
    assert "เกมที่ 2" in pairing_page.read_text(encoding="utf-8")  # the game in the match, in Thai
    # printed on A4, nothing fetched from outside, the Thai font first and beside the page
    assert "@media print" in page.style and "size: A4" in page.style
    assert page.links == [] and 'url("fonts/Loma.ttf")' in page.style
    assert page.style.index('"Loma"') < page.style.index("sans-serif")
    assert (tmp_path / "out" / "fonts" / "Loma.ttf").stat().st_size > 10_000
    assert (tmp_path / "out" / "fonts" / "LICENSE-Loma.txt").exists()
    assert page.svgs == 0  # no --result-url: no QR codes


def test_one_score_slip_per_table_in_order(published, tmp_path):
    _, slips_page = write(published, tmp_path)
    page = Page(slips_page.read_text(encoding="utf-8"))
    assert [s["table"] for s in page.slips] == [1, 2]
    assert [n for kind, _, n in page.slips[1]["left"] if kind == "name"] == [NAMES["1"]]
    assert [n for kind, _, n in page.slips[1]["right"] if kind in ("name", "latin")] == [NAMES["2"], "Malee Srisuk"]
    text = slips_page.read_text(encoding="utf-8")
    assert text.count("✂") == 2 and "ลายมือชื่อ" in text  # cut lines, the signature boxes in Thai


def test_english_headings_for_an_english_event(tmp_path, fold_system):
    with Store(tmp_path / "pc.db") as store:
        path = tmp_path / "p.csv"
        path.write_text("id,name\n1,Ann\n2,Ben\n", encoding="utf-8")
        events.create_event(store, "en-ev", fold_system, events.load_players(path), language="en",
                            options={"shuffle": False})
        events.draw(store, "en-ev", seed=1)
        events.publish(store, "en-ev")
        pairing_page, _ = sheets.write_sheets(tmp_path, store.event("en-ev"), events.round_of(store, "en-ev"),
                                              events.players_of(store, "en-ev"))
    text = pairing_page.read_text(encoding="utf-8")
    assert Page(text).lang == "en" and "Pairings" in text and "ประกบคู่" not in text


def test_the_result_url_pattern_is_checked():
    assert sheets.result_url("http://desk/r/{event}/{round}/{table}", "xw open", 3, 12) == "http://desk/r/xw%20open/3/12"
    for bad in ("desk/r/{table}", "http://desk/r/{player}", "http://desk/r/{table", "http://de sk/{table}"):
        with pytest.raises(sheets.SheetError, match="--result-url"):
            sheets.check_url_pattern(bad)


def test_without_segno_the_qr_codes_are_a_clear_error(published, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "segno", None)  # import segno fails as if it were not installed
    with pytest.raises(sheets.SheetError, match=r"QR codes need the segno package: pip install 'gameclock\[organiser\]'"):
        write(published, tmp_path, "http://desk/r/{event}/{round}/{table}")


def test_a_qr_code_per_table(published, tmp_path):
    import segno  # noqa: F401  (the organiser's extra, installed by `make test`: never skipped)
    pairing_page, slips_page = write(published, tmp_path, "http://desk/r/{event}/{round}/{table}")
    for path in (pairing_page, slips_page):
        text = path.read_text(encoding="utf-8")
        assert Page(text).svgs == 2
        assert "<title>http://desk/r/xw-open/1/1</title>" in text and "<title>http://desk/r/xw-open/1/2</title>" in text
