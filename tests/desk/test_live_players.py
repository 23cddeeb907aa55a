"""A player change reaches the live pages (issue 26): the standings page, the projector and the round's
progress learn what changed from the desk's stream (`/e/EVENT/stream`: Live polls `Store.live_stamp`), and
a withdrawal, a reinstatement, a late entry or a player's new name is a change there as a result is.

Found by the organiser's bad day: a player renamed or withdrawn at the desk showed on the projector's
standings only after the next result arrived (the stream said nothing: the store's stamp did not move)."""
from __future__ import annotations

import re
import threading
import time

import pytest
from deskhelp import LOCAL, LOCAL_URL, csrf_of, log_in, set_password
from starlette.testclient import TestClient

from gameclock.organiser.desk.app import create_app

EV = "demo"


@pytest.fixture
def desk(tmp_path):
    """(the organiser's client, a hall screen's client) over the demo event; streams of 1.5 s."""
    app = create_app(tmp_path / "demo.db", demo=True, interval=0.05, stream_seconds=1.5)
    organiser = TestClient(app, client=LOCAL, base_url=LOCAL_URL, follow_redirects=False)
    set_password(organiser)
    assert log_in(organiser).status_code == 303
    yield organiser, TestClient(app, client=LOCAL, base_url=LOCAL_URL)
    app.state.desk.store.close()


def streamed_while(screen: TestClient, act) -> list[str]:
    """The kinds of the events a stream opened before `act()` sends after its hello."""
    got: dict = {}
    t = threading.Thread(target=lambda: got.setdefault("r", screen.get(f"/e/{EV}/stream")))
    t.start()
    time.sleep(0.4)           # the stream has said hello and taken the store's stamp
    act()
    t.join()
    kinds = [k for k, _ in re.findall(r"event: (\w+)\ndata: (.*)\n\n", got["r"].text)]
    assert kinds[0] == "hello"
    return kinds[1:]


def mark(page: str, player: str) -> str | None:
    """What the standings say beside `player`'s name (event.player_marks), or None."""
    row = re.search(rf'<tr data-testid="standings-row" data-player="{player}".*?</tr>', page, re.S)
    assert row, page
    said = re.search(r'data-testid="player-mark">(.*?)</small>', row.group(0))
    return said.group(1) if said else None


def post(organiser: TestClient, path: str, **fields: str) -> None:
    token = csrf_of(organiser.get(f"/admin/e/{EV}").text)
    r = organiser.post(path, data={"csrf": token, **fields})
    assert r.status_code == 303, r.text


def test_each_player_change_refreshes_the_live_pages(desk):
    organiser, screen = desk
    standings = f"/e/{EV}/part/standings"
    assert "ผู้เล่นเจ็ด" not in screen.get(standings).text
    # player 7 (demo.PLAYERS: เอกชัย ทองดี) renamed: the standings name them so at once
    kinds = streamed_while(screen, lambda: post(organiser, f"/admin/e/{EV}/players/7", name="ผู้เล่นเจ็ด",
                                                latin="", campus="", level="secondary", rating="",
                                                reason="ชื่อตามบัตรประชาชน"))
    assert "standings" in kinds and "pairings" in kinds, kinds
    assert "ผู้เล่นเจ็ด" in screen.get(standings).text
    # withdrawn after round 2, then reinstated: each said on the stream, the standings mark them and then do not
    kinds = streamed_while(screen, lambda: post(organiser, f"/admin/e/{EV}/players/7/withdraw", reason="ป่วย"))
    assert "standings" in kinds and "pairings" in kinds, kinds
    assert mark(screen.get(f"{standings}?lang=en").text, "ผู้เล่นเจ็ด") == "(withdrawn after round 2)"
    kinds = streamed_while(screen, lambda: post(organiser, f"/admin/e/{EV}/players/7/reinstate", reason="หายป่วย"))
    assert "standings" in kinds and "pairings" in kinds, kinds
    assert mark(screen.get(f"{standings}?lang=en").text, "ผู้เล่นเจ็ด") is None
    # a late entry
    kinds = streamed_while(screen, lambda: post(organiser, f"/admin/e/{EV}/players/new", id="9", name="กมล ใจกว้าง",
                                                level="secondary", reason="มาสาย"))
    assert "standings" in kinds and "pairings" in kinds, kinds


def test_a_stream_without_changes_says_nothing_of_players(desk):
    """Nothing changed: no standings or pairings event (the stamp does not move by itself)."""
    organiser, screen = desk
    assert streamed_while(screen, lambda: None) == []
