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

from urllib.parse import quote

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from gameclock.dataerrors import printable, unsafe_char
from gameclock.dock.enroll import shown
from gameclock.dock.pairing import MAX_TABLE
from gameclock.organiser.desk import i18n, views
from gameclock.organiser.desk.docking import MAX_CODE, Code, DeskPortWorker, DockService, Enroll, PortStatus
from gameclock.organiser.desk.web import admin, desk_of, lang_of_page, read_form, render, who
from gameclock.organiser.store import Store

MAX_PORT_PATH = 200
MAX_SERIAL = 64
MAX_NOTICE = 600     # characters of a success line carried to the page in its address
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


def _page(request: Request, message: str = "", status: int = 200) -> Response:
    dock = dock_of(request)
    ports = dock.ports() if dock else []
    store = desk_of(request).store
    known = {c["serial"]: c for c in views.clocks(store)}
    order = dock.docked_in_order() if dock else []
    notice = request.query_params.get("msg", "")[:MAX_NOTICE] if not message else ""
    return render(request, "admin_clocks.html", {
        "dock": dock, "ports": ports, "clocks": list(known.values()), "known": known, "message": message,
        "notice": notice, "shown": shown, "max_code": MAX_CODE, "events": assignable_events(store),
        "tables": {a["serial"]: a for a in store.assignments()}, "order": order, "max_table": MAX_TABLE,
        "refresh": any(p.waiting or (p.view.enroll is not None and p.view.enroll.stage in WAITING)
                       for p in ports)},
        status=status)


def _done(said: str) -> Response:
    """Back to the clocks page, saying what was done (a success, styled apart from an error)."""
    return RedirectResponse(f"/admin/clocks?msg={quote(said[:MAX_NOTICE])}", status_code=303)


@admin
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
        return _page(request, f"clock {serial} is not docked on {status.path} now", status=409)
    return None


def _queued(request: Request, worker: DeskPortWorker, req: Enroll | Code) -> Response:
    if not worker.ask(req):
        return _page(request, f"{worker.path}: too many requests waiting: wait a moment", status=503)
    return RedirectResponse("/admin/clocks", status_code=303)


@admin
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


@admin
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
        return _page(request, f"clock {serial}: no code is waiting to be typed", status=409)
    if len(typed) > MAX_CODE:
        typed = typed[:MAX_CODE]  # still a wrong code: the enrollment ends as for any other
    return _queued(request, worker, Code(serial, typed))


# ------------------------------------------------------------------------------------------ the clocks' tables
def _event_and_table(request: Request, form: dict[str, str], field: str) -> tuple[str, int] | Response:
    """The form's event (one of `assignable_events`) and its number field `field` (1-MAX_TABLE), or the page
    saying which is wrong (400)."""
    lang = lang_of_page(request, None)
    store = desk_of(request).store
    event = form.get("event", "")
    if event not in assignable_events(store):
        return _page(request, i18n.tr("no event {event} on this PC", lang).format(event=printable(event[:64])), 400)
    text = form.get(field, "").strip()
    if not (text.isascii() and text.isdigit() and len(text) <= 4 and 1 <= int(text) <= MAX_TABLE):
        return _page(request, i18n.tr("table {table}: a whole number 1-{hi}", lang).format(
            table=printable(text[:8]) or "?", hi=MAX_TABLE), 400)
    return event, int(text)


@admin
async def assign(request: Request) -> Response:
    """Clock `serial` serves table `table` of `event` (the clock that had that table loses it)."""
    form = await read_form(request)
    serial = _serial(form)
    store = desk_of(request).store
    lang = lang_of_page(request, None)
    if serial not in {c["serial"] for c in store.clocks()}:
        return _page(request, i18n.tr("no clock {serial} on this PC", lang).format(serial=serial), 404)
    checked = _event_and_table(request, form, "table")
    if isinstance(checked, Response):
        return checked
    event, table = checked
    try:
        lost = store.assign_clock(serial, event, table, by=who(request))
    except ValueError as exc:
        return _page(request, str(exc), 400)
    nudge(request)
    said = i18n.tr("{serial}: {event} table {table}", lang).format(serial=serial, event=event, table=table)
    if lost:
        said += "; " + i18n.tr("{serial} has no table now", lang).format(serial=lost)
    return _done(said)


@admin
async def assign_order(request: Request) -> Response:
    """"Assign tables in docking order": each enrolled clock docked now, the first docked first, the lowest
    table of the event from `first` that no other clock has."""
    form = await read_form(request)
    lang = lang_of_page(request, None)
    checked = _event_and_table(request, form, "first")
    if isinstance(checked, Response):
        return checked
    event, first = checked
    dock = dock_of(request)
    order = dock.docked_in_order() if dock is not None else []
    if not order:
        return _page(request, i18n.tr("no enrolled clock is docked now", lang), 409)
    try:
        got = desk_of(request).store.assign_in_order(event, order, by=who(request), first=first)
    except ValueError as exc:  # past table 999
        return _page(request, str(exc), 400)
    nudge(request)
    return _done("; ".join(i18n.tr("{serial}: {event} table {table}", lang).format(serial=s, event=event, table=t)
                           for s, t in got))


@admin
async def unassign(request: Request) -> Response:
    """Clock `serial` serves no table: its own Event and Table settings pick its pairing again."""
    form = await read_form(request)
    serial = _serial(form)
    lang = lang_of_page(request, None)
    if not desk_of(request).store.unassign_clock(serial, by=who(request)):
        return _page(request, i18n.tr("clock {serial} has no table", lang).format(serial=serial), 409)
    nudge(request)
    return _done(i18n.tr("clock {serial}: no table (its own settings pick its pairing)", lang).format(serial=serial))
