"""docs/desk.md shows every page of the desk in Thai and in English: each page the app serves (a GET
route that is a page, not a fragment, stream, font or static file) has a picture in both languages
made by docs/desk/make_pictures.py, and every picture the guide shows is there."""
from __future__ import annotations

import re
from pathlib import Path

from starlette.routing import Route

ROOT = Path(__file__).resolve().parents[2]
NOT_PAGES = ("/part/", "/stream", "/fonts/", "/export/")
REDIRECTS = {"/e/{event}/pairings"}   # to the latest round's pairings page (pictured)


def page_routes(app) -> set[str]:
    return {r.path for r in app.routes if isinstance(r, Route) and "GET" in (r.methods or set())
            and not any(x in r.path for x in NOT_PAGES) and r.path not in REDIRECTS}


def pictured_paths() -> set[str]:
    """The paths make_pictures.py takes, with the demo's values put back as the route's parameters."""
    src = (ROOT / "docs/desk/make_pictures.py").read_text(encoding="utf-8")
    paths = set(re.findall(r'\("[\w-]+", f?"(/[^"]*)"', src))
    generic = set()
    for p in paths:
        p = p.replace("{EV}", "{event}").split("?")[0]   # a page's query (find?q=...) is not its route
        p = re.sub(r"/pairings/\d+/table/\d+$", "/pairings/{round:int}/table/{table:int}", p)
        p = re.sub(r"/pairings/\d+$", "/pairings/{round:int}", p)
        p = re.sub(r"/round/\d+/table/\d+$", "/round/{n:int}/table/{t:int}", p)
        p = re.sub(r"/round/\d+$", "/round/{n:int}", p)
        p = re.sub(r"/players/\d+$", "/players/{pid}", p)
        p = re.sub(r"/results/\{[^}]+\}.*$", "/results/{rid}", p)
        generic.add(p)
    return generic


def test_every_page_has_its_picture(app):
    assert page_routes(app) - pictured_paths() == set()


def test_every_picture_of_the_guide_is_there_in_both_languages():
    guide = (ROOT / "docs/desk.md").read_text(encoding="utf-8")
    shown = re.findall(r"\]\((desk/[\w-]+\.png)\)", guide)
    assert len(shown) >= 30
    for rel in shown:
        assert (ROOT / "docs" / rel).is_file(), rel
        other = rel.replace("-th-", "-en-") if "-th-" in rel else rel.replace("-en-", "-th-")
        assert other in shown, f"{rel} without its other language"
