"""The public pages' QR codes (issue 28): one per player card and one per table, each an inline SVG
made once per address and kept (`svg`: an LRU cache of CACHED codes, ~6 kB each), pointing at the
public address the organiser set at the desk (web.public_address). Without one, the codes are made
from the address the page was opened with unless that is this PC's own (127.0.0.1 on the organiser's
PC: useless to a phone), and the pages say so (`target`). The static export (site.py) asks the pages
at its own host: no code there (its readers cannot reach the desk), nor a word about the address."""
from __future__ import annotations

from functools import lru_cache
from urllib.parse import quote

from markupsafe import Markup
from starlette.requests import Request

from gameclock.organiser.desk.site import EXPORT_HOST
from gameclock.organiser.desk.web import LOOPBACK, base_url, desk_of, host_name, public_address

CACHED = 4096   # codes kept: a 2,000-player event's cards and tables


@lru_cache(maxsize=CACHED)
def svg(url: str) -> Markup:
    """`url` as a QR code, made once: segno's inline SVG (class "segno", which the static export leaves out),
    scalable (no size: desk.css sizes `.qr svg`), error correction M, the URL its title."""
    import segno  # the organiser's extra (pyproject), as the players page always imported it

    return Markup(segno.make(url, error="m").svg_inline(border=2, omitsize=True, title=url, lineclass=None))


def target(request: Request) -> tuple[str | None, bool]:
    """(the address the codes carry, whether the organiser set it): the public address when set; else the
    page's own when it is not this PC's loopback name; else None (no code is worth printing)."""
    if host_name(request) == EXPORT_HOST:
        return None, True
    set_address = public_address(desk_of(request))
    if set_address:
        return set_address, True
    if host_name(request) in LOOPBACK | {"[::1]"}:
        return None, False
    return base_url(request) or None, False


def card_url(base: str, event: str, pid: str) -> str:
    return f"{base}/e/{quote(event, safe='')}/players/{quote(pid, safe='')}"


def table_url(base: str, event: str, rnd: int, table: int) -> str:
    return f"{base}/e/{quote(event, safe='')}/pairings/{rnd}/table/{table}"
