"""The organiser's clocks page (/admin/clocks) and enrollment from it.

The page shows the ports the desk serves (`gameclock desk --dock auto|PATH`, docking.py) with the
clock docked on each (serial, enrolled or not, the results it said were waiting, last contact) and
every clock this PC knows (`Store.clocks`). For a docked clock: Enroll, or Replace its key (after a
confirmation page: results signed with the old key are refused from then on, as `gameclock enroll
--replace`). While an enrollment runs the page shows this PC's code and takes the code the clock
shows; the key is stored only when the arbiter confirmed on the clock and the organiser typed it here.

These handlers never touch a port's endpoint: they queue a request for its worker (`DockService`)
and read the snapshot it publishes.
"""
from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from gameclock.dataerrors import unsafe_char
from gameclock.dock.enroll import shown
from gameclock.organiser.desk import views
from gameclock.organiser.desk.docking import MAX_CODE, Code, DeskPortWorker, DockService, Enroll, PortStatus
from gameclock.organiser.desk.web import desk_of, organiser, read_form, render
from gameclock.organiser.said import words

MAX_PORT_PATH = 200
MAX_SERIAL = 64
WAITING = ("asked", "confirming", "storing")   # the page reloads itself meanwhile


def dock_of(request: Request) -> DockService | None:
    dock: DockService | None = getattr(request.app.state, "dock", None)
    return dock


def _page(request: Request, error: object = None, status: int = 200) -> Response:
    dock = dock_of(request)
    ports = dock.ports() if dock else []
    known = {c["serial"]: c for c in views.clocks(desk_of(request).store)}
    return render(request, "admin_clocks.html", {
        "dock": dock, "ports": ports, "clocks": list(known.values()), "known": known, "error": error,
        "shown": shown, "max_code": MAX_CODE,
        "refresh": any(p.waiting or (p.view.enroll is not None and p.view.enroll.stage in WAITING)
                       for p in ports)},
        status=status)


@organiser
async def clocks_page(request: Request) -> Response:
    return _page(request)


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
    serial = form.get("serial", "")
    if not serial or len(serial) > MAX_SERIAL or unsafe_char(serial) is not None or not serial.isprintable():
        raise HTTPException(400, "no clock named")
    return worker, worker.status(), serial


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
