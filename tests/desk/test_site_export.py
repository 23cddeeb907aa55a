"""The static export of an event's public pages (issue 28): `gameclock export-site DIR --event E` and the
admin exports page's zip. A folder that stands alone: every link relative and to a file of the folder, the
stylesheet and fonts copied in, no JavaScript, no live stream, no admin link, no address of the desk."""
from __future__ import annotations

import io
import posixpath
import re
import zipfile
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from deskhelp import LOCAL, LOCAL_URL, log_in, set_password
from starlette.testclient import TestClient

from gameclock.cli import main
from gameclock.organiser.desk import site
from gameclock.organiser.desk.app import create_app
from gameclock.organiser.desk.demo import PLAYERS, build_demo

LINK = re.compile(r'(?<![\w-])(?:href|src|action)="([^"]*)"')
CSS_LINK = re.compile(r'url\("?([^")]+)"?\)')
SVG_NS = 'xmlns="http://www.w3.org/2000/svg"'   # an inline chart's namespace: a name, not a link


@pytest.fixture
def demo_db(tmp_path):
    path = tmp_path / "pc.db"
    build_demo(path)
    return path


def check_stands_alone(files: dict[str, bytes], desk_addresses: tuple[str, ...]) -> None:
    """Every page's links are relative and name a file of the export; nothing of the desk is left."""
    for name, data in files.items():
        if name.endswith(".css"):
            text = data.decode("utf-8")
            for url in CSS_LINK.findall(text):
                assert not urlsplit(url).scheme and not url.startswith("/"), (name, url)
                assert posixpath.normpath(posixpath.join(posixpath.dirname(name), url)) in files, (name, url)
        if not name.endswith(".html"):
            continue
        text = data.decode("utf-8")
        assert "<script" not in text and "data-src" not in text and "<form" not in text, name
        assert "/admin" not in text and "/stream" not in text, name
        for address in desk_addresses:
            assert address not in text, (name, address)
        assert not re.search(r"https?://", text.replace(SVG_NS, "")), name
        for url in LINK.findall(text):
            parts = urlsplit(url)
            assert not parts.scheme and not parts.netloc and not url.startswith("/"), (name, url)
            if parts.path:
                target = posixpath.normpath(posixpath.join(posixpath.dirname(name), unquote(parts.path)))
                assert not target.startswith(".."), (name, url)
                assert target in files, (name, url)


def test_export_site_writes_a_folder_that_stands_alone(demo_db, tmp_path, capsys):
    out = tmp_path / "site"
    assert main(["export-site", str(out), "--event", "demo", "--db", str(demo_db), "--lang", "th"]) == 0
    assert "files in" in capsys.readouterr().err
    files = {str(p.relative_to(out)): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    # the demo: rounds 1 and 2 published, eight players (demo.py), results in: crosstable and final standings
    expected = {"index.html", "standings.html", "pairings/1.html", "pairings/2.html", "players.html",
                "crosstable.html", "final.html", "static/desk.css", "fonts/Loma.ttf", "fonts/Loma-Bold.ttf",
                *(f"players/{pid}.html" for pid, *_ in PLAYERS)}
    assert expected <= set(files)
    check_stands_alone(files, ("export.invalid", "127.0.0.1", "testserver"))
    # the same pages as the desk's: the standings' rows, a player's card with the player's name, in Thai
    standings = files["standings.html"].decode("utf-8")
    assert '<html lang="th">' in standings and "ตารางคะแนน" in standings
    assert all(name in standings for _pid, name, _latin, _school in PLAYERS)
    assert PLAYERS[0][1] in files["players/1.html"].decode("utf-8")
    assert 'href="../standings.html"' in files["players/1.html"].decode("utf-8")
    # each page says it is a copy, and when it was made (this PC's time, to the minute at least)
    for name in ("index.html", "standings.html", "players/1.html", "pairings/2.html"):
        said = re.search(r'<p class="note" data-testid="exported">([^<]*)</p>', files[name].decode("utf-8"))
        assert said and said.group(1).startswith("สำเนาหน้าเว็บของโต๊ะผู้จัด ทำเมื่อ 20"), name
    # the Projector's link is the desk's (live): its text stays, no link
    assert "/projector" not in standings and "จอฉาย" in standings

    # run again after a round: the files are replaced, none left half
    assert main(["export-site", str(out), "--event", "demo", "--db", str(demo_db)]) == 0


def test_export_site_refuses_an_unknown_event_and_a_missing_database(demo_db, tmp_path, capsys):
    assert main(["export-site", str(tmp_path / "s"), "--event", "nope", "--db", str(demo_db)]) == 1
    assert "no event 'nope'" in capsys.readouterr().err
    assert not (tmp_path / "s").exists()
    assert main(["export-site", str(tmp_path / "s"), "--event", "demo", "--db", str(tmp_path / "none.db")]) == 1
    assert "no such database" in capsys.readouterr().err
    assert not (tmp_path / "none.db").exists()


def test_a_hostile_path_never_names_a_file_outside_the_folder():
    assert site.file_for("/", "/e/E/") == "index.html"
    assert site.file_for("/e/E/players/12", "/e/E/") == "players/12.html"
    for hostile in ("/e/E/players/../../../etc/passwd", "/e/E/players/สมชาย", "/e/E/players/a b", "/e/E/.."):
        name = site.file_for(hostile, "/e/E/")
        assert ".." not in name.split("/") and not name.startswith("/"), name
        assert posixpath.normpath(name) == name
    # two different Thai ids are two files
    assert site.file_for("/e/E/players/ก", "/e/E/") != site.file_for("/e/E/players/ข", "/e/E/")


def test_the_admin_exports_page_downloads_the_site_as_a_zip(demo_db):
    app = create_app(demo_db, public_url="http://192.168.1.10:8017")
    c = TestClient(app, client=LOCAL, base_url=LOCAL_URL, follow_redirects=False)
    set_password(c)
    assert log_in(c).status_code == 303
    page = c.get("/admin/e/demo?lang=th").text
    assert 'action="/admin/e/demo/export/site"' in page and "หน้าสาธารณะ (เว็บไซต์แบบคงที่)" in page
    r = c.get("/admin/e/demo/export/site")
    assert r.status_code == 200 and r.headers["content-type"] == "application/zip"
    assert 'filename="demo-site.zip"' in r.headers["content-disposition"]
    with zipfile.ZipFile(io.BytesIO(r.content)) as z:
        files = {n.removeprefix("demo-site/"): z.read(n) for n in z.namelist()}
    assert {"index.html", "standings.html", "players/1.html", "static/desk.css"} <= set(files)
    # neither the desk's address the organiser set (the players' QR codes) nor the one the page was asked at
    check_stands_alone(files, ("192.168.1.10", "127.0.0.1", "export.invalid"))
    # no session, no admin: the public pages as a phone gets them
    assert b"Log out" not in files["standings.html"] and b"admin-nav" not in files["standings.html"]
    anon = TestClient(create_app(demo_db), follow_redirects=False)
    assert anon.get("/admin/e/demo/export/site").status_code in (303, 403)


def test_the_export_leaves_nothing_beside_the_database(demo_db, tmp_path):
    before = set(Path(demo_db).parent.iterdir())
    assert main(["export-site", str(tmp_path / "x" / "site"), "--event", "demo", "--db", str(demo_db)]) == 0
    assert set(Path(demo_db).parent.iterdir()) - before == {tmp_path / "x"}
