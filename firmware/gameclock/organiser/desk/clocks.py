"""The organiser's clocks page (/admin/clocks) and enrollment from it.

The page shows the ports the desk serves (`gameclock desk --dock auto|PATH`, docking.py) with the
clock docked on each (serial, enrolled or not, the results it said were waiting, last contact) and
every clock this PC knows (`Store.clocks`). For a docked clock: Enroll, or Replace its key (after a
confirmation page: results signed with the old key are refused from then on, as `gameclock enroll
--replace`). While an enrollment runs the page shows this PC's code and takes the code the clock
shows; the key is stored only when the arbiter confirmed on the clock and the organiser typed it here.

Which table each clock serves (issue 26): a clock docked now is assigned a table of an event here, one at a
time (a spare clock given a dead one's table takes it: the dead one has none then) or "in docking order" for a
fresh event (each enrolled clock docked now the lowest free table, the first docked the lowest); the PC sends
a clock the pairing of its table at every docking and whenever a round is published, whatever its own Event
and Table settings say (dock/PROTOCOL.md, "Which pairing a clock gets"). The page says, for each docked
clock, the pairing last sent and whether the clock took it. Each change is kept with who and when
(`Store.assign_clock`, `dock_changes`) and reaches the docked clocks at once (`DockService.nudge`).

These handlers never touch a port's endpoint: they queue a request for its worker (`DockService`)
and read the snapshot it publishes.
"""
from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from gameclock.dataerrors import printable, unsafe_char
from gameclock.dock.enroll import shown
from gameclock.dock.pairing import MAX_TABLE
from gameclock.organiser.desk import views
from gameclock.organiser.desk.docking import MAX_CODE, Code, DeskPortWorker, DockService, Enroll, PortStatus
from gameclock.organiser.desk.web import back, desk_of, organiser, read_form, render, who
from gameclock.organiser.said import Words, listed_words, words
from gameclock.organiser.store import Store

MAX_PORT_PATH = 200
MAX_SERIAL = 64
WAITING = ("asked", "confirming", "storing")   # the page reloads itself meanwhile


def dock_of(request: Request) -> DockService | None:
    dock: DockService | None = getattr(request.app.state, "dock", None)
    return dock


def nudge(request: Request) -> None:
    """The clocks docked now are sent what changed at once (a round published, a clock's table assigned): the
    desk's publish hook (admin.py) and the assignments below call it. Nothing without a dock."""
    dock = dock_of(request)
    if dock is not None:
        dock.nudge()


def assignable_events(store: Store) -> list[str]:
    """The events a clock can be assigned to: those the PC pairs and those pairings were loaded for."""
    return sorted(set(store.events()) | {p["event"] for p in store.pairings() if p["event"] is not None})


def _page(request: Request, error: object = None, status: int = 200) -> Response:
    dock = dock_of(request)
    ports = dock.ports() if dock else []
    store = desk_of(request).store
    known = {c["serial"]: c for c in views.clocks(store)}
    order = dock.docked_in_order() if dock else []
    return render(request, "admin_clocks.html", {
        "dock": dock, "ports": ports, "clocks": list(known.values()), "known": known, "error": error,
        "shown": shown, "max_code": MAX_CODE, "events": assignable_events(store),
        "tables": {a["serial"]: a for a in store.assignments()}, "order": order, "max_table": MAX_TABLE,
        "refresh": any(p.waiting or (p.view.enroll is not None and p.view.enroll.stage in WAITING)
                       for p in ports)},
        status=status)


def _done(request: Request, said: Words) -> Response:
    """Back to the clocks page, saying what was done (a success notice, web.back)."""
    return back(request, "/admin/clocks", "success", said)


@organiser
async def clocks_page(request: Request) -> Response:
    return _page(request)


def _serial(form: dict[str, str]) -> str:
    """The serial a form names: 400 unless a plain serial."""
    serial = form.get("serial", "")
    if not serial or len(serial) > MAX_SERIAL or unsafe_char(serial) is not None or not serial.isprintable():
        raise HTTPException(400, "no clock named")
    return serial


def _docked(request: Request, form: dict[str, str]) -> tuple[DeskPortWorker, PortStatus, str]:
    """The port a form names (one the desk serves: 404 otherwise), its status, and the serial the form
    names (400 unless a plain serial)."""
    dock = dock_of(request)
    path = form.get("port", "")
    if dock is None or not path or len(path) > MAX_PORT_PATH:
        raise HTTPException(404)
    worker = dock.worker(path)
    if worker is None:
        raise HTTPException(404)
    return worker, worker.status(), _serial(form)


def _refused(request: Request, status: PortStatus, serial: str) -> Response | None:
    """The page saying why, when the clock is not docked on that port now; else None."""
    clock = status.view.clock
    if clock is None or clock.serial != serial:
        return _page(request, words("clock {serial} is not docked on {port} now", serial=serial, port=status.path),
                     status=409)
    return None


def _queued(request: Request, worker: DeskPortWorker, req: Enroll | Code) -> Response:
    if not worker.ask(req):
        return _page(request, words("{port}: too many requests waiting: wait a moment", port=worker.path), status=503)
    return RedirectResponse("/admin/clocks", status_code=303)


@organiser
async def enroll(request: Request) -> Response:
    """Enroll the docked clock; with replace=1, after the confirmation page (confirm=yes)."""
    form = await read_form(request)
    worker, status, serial = _docked(request, form)
    refused = _refused(request, status, serial)
    if refused is not None:
        return refused
    replace = form.get("replace") == "1"
    if replace and form.get("confirm") != "yes":
        return render(request, "admin_clocks_replace.html", {"port": status.path, "serial": serial})
    return _queued(request, worker, Enroll(serial, replace))


@organiser
async def code(request: Request) -> Response:
    """The code the clock shows, typed by the organiser."""
    form = await read_form(request)
    worker, status, serial = _docked(request, form)
    refused = _refused(request, status, serial)
    if refused is not None:
        return refused
    typed = form.get("code", "")
    e = status.view.enroll
    if e is None or e.serial != serial or e.stage != "compare":
        return _page(request, words("clock {serial}: no code is waiting to be typed", serial=serial), status=409)
    if len(typed) > MAX_CODE:
        typed = typed[:MAX_CODE]  # still a wrong code: the enrollment ends as for any other
    return _queued(request, worker, Code(serial, typed))


# ------------------------------------------------------------------------------------------ the clocks' tables
def _event_and_table(request: Request, form: dict[str, str], field: str) -> tuple[str, int] | Response:
    """The form's event (one of `assignable_events`) and its number field `field` (1-MAX_TABLE), or the page
    saying which is wrong (400)."""
    store = desk_of(request).store
    event = form.get("event", "")
    if event not in assignable_events(store):
        return _page(request, words("no event {event} on this PC", event=printable(event[:64])), 400)
    text = form.get(field, "").strip()
    if not (text.isascii() and text.isdigit() and len(text) <= 4 and 1 <= int(text) <= MAX_TABLE):
        return _page(request, words("table {table}: a whole number 1-{hi}", table=printable(text[:8]) or "?",
                                    hi=MAX_TABLE), 400)
    return event, int(text)


@organiser
async def assign(request: Request) -> Response:
    """Clock `serial` serves table `table` of `event` (the clock that had that table loses it)."""
    form = await read_form(request)
    serial = _serial(form)
    store = desk_of(request).store
    if serial not in {c["serial"] for c in store.clocks()}:
        return _page(request, words("no clock {serial} on this PC", serial=serial), 404)
    checked = _event_and_table(request, form, "table")
    if isinstance(checked, Response):
        return checked
    event, table = checked
    try:
        lost = store.assign_clock(serial, event, table, by=who(request))
    except ValueError as exc:
        return _page(request, exc, 400)
    nudge(request)
    said = words("{serial}: {event} table {table}", serial=serial, event=event, table=table)
    if lost:
        said = words("{done}; {lost}", done=said, lost=words("{serial} has no table now", serial=lost))
    return _done(request, said)


@organiser
async def assign_order(request: Request) -> Response:
    """"Assign tables in docking order": each enrolled clock docked now, the first docked first, the lowest
    table of the event from `first` that no other clock has."""
    form = await read_form(request)
    checked = _event_and_table(request, form, "first")
    if isinstance(checked, Response):
        return checked
    event, first = checked
    dock = dock_of(request)
    order = dock.docked_in_order() if dock is not None else []
    if not order:
        return _page(request, words("no enrolled clock is docked now"), 409)
    try:
        got = desk_of(request).store.assign_in_order(event, order, by=who(request), first=first)
    except ValueError as exc:  # past table 999
        return _page(request, exc, 400)
    nudge(request)
    return _done(request, listed_words([words("{serial}: {event} table {table}", serial=s, event=event, table=t)
                                        for s, t in got], limit=len(got), sep="; "))


@organiser
async def unassign(request: Request) -> Response:
    """Clock `serial` serves no table: its own Event and Table settings pick its pairing again."""
    form = await read_form(request)
    serial = _serial(form)
    if not desk_of(request).store.unassign_clock(serial, by=who(request)):
        return _page(request, words("clock {serial} has no table", serial=serial), 409)
    nudge(request)
    return _done(request, words("clock {serial}: no table (its own settings pick its pairing)", serial=serial))
