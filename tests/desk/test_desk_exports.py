"""The desk's exports (issue 26): a download keeps its Thai file name (RFC 6266's `filename*`, with
an ASCII `filename` for browsers that read only that), and the organiser chooses the encoding of
tsh, TRF and CSV files as `gameclock export --encoding utf-8|windows-874` does.

Found by an organiser's day at the desk: `ครอสเวิร์ด-ม.ปลาย-2568.trf` downloaded as
`ครอสเว_ร_ด-ม.ปลาย-2568.trf`, and TRF from the web was UTF-8 only."""
from __future__ import annotations

import re
from urllib.parse import unquote

import pytest
from deskhelp import LOCAL, LOCAL_URL, log_in, set_password
from kit import rec, store_with, xw
from starlette.testclient import TestClient

from gameclock.organiser.desk.app import create_app

THAI_EVENT = "ครอสเวิร์ด-ม.ปลาย-2568"


def disposition(header: str) -> tuple[str, str]:
    """(filename, filename*) of a Content-Disposition header, the second percent-decoded (RFC 6266)."""
    plain = re.search(r'filename="([^"]*)"', header)
    star = re.search(r"filename\*=UTF-8''([^;\s]+)", header)
    assert plain and star, header
    # RFC 5987's attr-char: what a filename* may hold undecoded
    assert re.fullmatch(r"[A-Za-z0-9!#$&+\-.^_`|~%]+", star.group(1)), star.group(1)
    return plain.group(1), unquote(star.group(1), encoding="utf-8", errors="strict")


@pytest.fixture
def thai_desk(tmp_path):
    """A desk over a database holding a Thai-named Crossword event (one game) and Makruk event mk."""
    db = tmp_path / "pc.db"
    makruk = [rec(f"mk1-{n:06d}", "mk", 1, n, left, right, "left", reason="mate", first="left",
                  piece_value=(9, 4), preset="makruk-45", kind="makruk", serial="mk1")
              for n, (left, right) in enumerate((("อรุณ", "บัว"), ("จันทร์", "ดี")), start=1)]
    store_with(db, [xw(1, THAI_EVENT, 1, 1, "อนันต์", "บุญ", 420, 380)] + makruk)
    app = create_app(db)
    client = TestClient(app, client=LOCAL, base_url=LOCAL_URL, follow_redirects=False)
    set_password(client)
    assert log_in(client).status_code == 303
    yield client
    app.state.desk.store.close()


def test_a_download_keeps_its_thai_file_name(thai_desk):
    for fmt, ext in (("tsh", "t"), ("trf", "trf"), ("csv", "csv"), ("jsonl", "jsonl")):
        r = thai_desk.get(f"/admin/e/{THAI_EVENT}/export/{fmt}")
        assert r.status_code == 200, (fmt, r.text)
        plain, star = disposition(r.headers["content-disposition"])
        assert star == f"{THAI_EVENT}.{ext}", fmt
        assert plain.isascii() and plain.endswith(f".{ext}") and '"' not in plain and "\\" not in plain


def test_the_trf_encoding_is_chosen_in_the_web_as_in_the_command(thai_desk):
    utf8 = thai_desk.get("/admin/e/mk/export/trf?encoding=utf-8")
    thai = thai_desk.get("/admin/e/mk/export/trf?encoding=windows-874")
    assert utf8.status_code == thai.status_code == 200
    # windows-874: one byte a Thai letter, so TRF's columns are bytes too (จันทร์: 6 letters, 6 bytes)
    assert thai.content == utf8.content.decode("utf-8").encode("cp874")
    assert "จันทร์".encode("cp874") in thai.content and "จันทร์".encode() not in thai.content
    assert "charset=windows-874" in thai.headers["content-type"]
    assert "charset=utf-8" in utf8.headers["content-type"]
    # tsh and csv take it too; an encoding the command does not know is refused, nothing sent
    assert thai_desk.get(f"/admin/e/{THAI_EVENT}/export/tsh?encoding=windows-874").content.startswith(
        "อนันต์".encode("cp874"))
    assert thai_desk.get("/admin/e/mk/export/trf?encoding=latin-1").status_code == 400


def test_the_event_page_offers_the_encodings(thai_desk):
    page = thai_desk.get("/admin/e/mk").text
    form = re.search(r'<form[^>]*data-testid="export-trf"[^>]*>.*?</form>', page, re.S)
    assert form, "a form for the TRF export"
    assert 'value="windows-874"' in form.group(0) and 'value="utf-8"' in form.group(0)
