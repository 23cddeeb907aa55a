"""The organiser's pages under /admin (a login needed: `web.admin`): the events, pairing and
publishing, round progress, a result and its amendments, exports."""
from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from markupsafe import Markup
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from gameclock.organiser import amendments
from gameclock.organiser import event as events
from gameclock.organiser.desk import charts, clocks, i18n, setup, views, wall
from gameclock.organiser.desk.web import (
    AMEND_OUTCOMES,
    MAX_REASON,
    admin,
    attachment,
    back,
    desk_of,
    lang_of_page,
    organiser,
    part,
    public_address,
    read_form,
    render,
    the_event,
    who,
)
from gameclock.organiser.said import said_of, words
from gameclock.organiser.store import StoreError


@admin
async def admin_home(request: Request) -> Response:
    store = desk_of(request).store
    return render(request, "admin_home.html", {"events": views.event_names(store), "paired": store.events(),
                                               "public_address": public_address(desk_of(request))})


@admin
async def admin_event(request: Request) -> Response:
    event = the_event(request)
    store = desk_of(request).store
    event_setup = views.event_setup(store, event)
    times = views.round_times(store, event)
    return render(request, "admin_event.html", {
        "setup": event_setup, "options": setup.options_view(store, event), "rounds": views.rounds(store, event),
        "round_chart": Markup(charts.round_times(times, i18n.tr("Time used per round", lang_of_page(request, event)))),
        # issue 28: the public pages' header and address (admin_public_pages.html)
        "public_header": store.event_header(event), "public_address": public_address(desk_of(request)),
        **EXPORT_CHOICES}, event=event)


async def _draw_step(request: Request, step: Callable[..., dict[str, Any]], action: str, said: str) -> Response:
    """Pair or Redraw (issue 26): first a page asking, saying what is lost (the organiser's edits since the
    system drew the draft: `event.draft_edits`), whose form confirms on the version it showed -- for
    Pair whenever a draft is waiting, for Redraw (a new seed: what its button says) when the draft has
    edits to lose; then `step` as the person logged in. A draft changed since the page showed it:
    refused, with what changed (409)."""
    event = the_event(request)
    form = await read_form(request)
    store = desk_of(request).store
    version = setup.version_of(form)
    draft = events.draft_of(store, event)
    if draft is not None and form.get("confirm") != "1":
        lost = events.draft_edits(store, event)
        if action == "pair" or lost is not None and lost.steps:
            return render(request, "admin_pair_confirm.html", {"draft": draft, "lost": lost, "action": action},
                          event=event)
    url = f"/admin/e/{quote(event)}"
    try:
        r = await run_in_threadpool(step, store, event, by=who(request), version=version)
    except events.DraftChanged as exc:
        return setup.draft_changed(request, event, exc.diff)
    except (events.EventError, StoreError) as exc:
        return back(request, url, "error", exc)
    return back(request, url, "success", words(said, round=r["round"], seed=r["seed"]))


@organiser
async def admin_pair(request: Request) -> Response:
    """Pair: the next round's draft (event.draw); with a draft waiting, asked first (`_draw_step`)."""
    return await _draw_step(request, events.draw, "pair", "round {round}: draft drawn (seed {seed})")


@organiser
async def admin_redraw(request: Request) -> Response:
    """Redraw: the waiting draft drawn again with a new seed, only where a seed draws something (round
    1's lot, a knockout tie's lot: event.redraw); refused otherwise, saying what the draft continues.
    Asked first, as Pair with a draft waiting (`_draw_step`)."""
    return await _draw_step(request, events.redraw, "redraw", "round {round}: drawn again (seed {seed})")


@organiser
async def admin_publish(request: Request) -> Response:
    """Publish the draft version the page showed (event.publish): another version is refused with what
    changed since (409), nothing published."""
    event = the_event(request)
    form = await read_form(request)
    url = f"/admin/e/{quote(event)}"
    try:
        r = await run_in_threadpool(events.publish, desk_of(request).store, event, setup.version_of(form))
        clocks.nudge(request)  # issue 26: the clocks docked now get the round at once (each port looks every second anyway)
    except events.DraftChanged as exc:
        return setup.draft_changed(request, event, exc.diff)
    except (events.EventError, StoreError, ValueError) as exc:
        return back(request, url, "error", exc)
    return back(request, url, "success", words("round {round} published", round=r["round"]))


@admin
async def admin_prizes(request: Request) -> Response:
    """The printable prize list (views.final_standings): one page per level and group, the places, the
    medals and certificates (XW-11), marked provisional until they are decided."""
    event = the_event(request)
    data = await run_in_threadpool(views.final_standings, desk_of(request).store, event)
    return render(request, "admin_prizes.html", {"data": data}, event=event)


@admin
async def admin_round(request: Request) -> Response:
    event = the_event(request)
    rnd = request.path_params["n"]
    store = desk_of(request).store
    if rnd not in views.rounds(store, event):
        raise HTTPException(404)
    return render(request, "admin_round.html", {"round": rnd, "tables": views.progress(store, event, rnd),
                                                "note": views.ROUND_NOTE,
                                                "wall": wall.admin_context(store, event, rnd)}, event=event)


@admin
async def admin_round_part(request: Request) -> Response:
    event = the_event(request)
    rnd = request.path_params["n"]
    store = desk_of(request).store
    if rnd not in views.rounds(store, event):
        raise HTTPException(404)
    return render(request, "admin_part_progress.html", {"round": rnd, "tables": views.progress(store, event, rnd)},
                  event=event)


@admin
async def admin_result(request: Request) -> Response:
    rid = part(request, "rid")
    data = views.result(desk_of(request).store, rid)
    if data is None:
        raise HTTPException(404)
    return _result_page(request, data)


def _result_page(request: Request, data: dict[str, Any], error: object = None, status: int = 200,
                 warning: dict[str, Any] | None = None) -> Response:
    rec = data["record"]
    lang = lang_of_page(request, rec.get("event"))
    # a side without a player's name (a clock that had no pairing) is named by its side, in the page's language
    names = {s: (rec.get("players") or {}).get(s) or i18n.tr(s, lang) for s in ("left", "right")}
    chart = charts.move_times(data["sides"], names, i18n.tr("Move times", lang))
    return render(request, "admin_result.html", {"r": data, "names": names, "chart": Markup(chart),
                                                 "seconds": charts.seconds, "error": error, "warning": warning,
                                                 "outcomes": AMEND_OUTCOMES, "field_names": views.FIELD_NAMES},
                  event=rec.get("event"), status=status)


def _score(value: str) -> int | None:
    value = value.strip()
    if not value:
        return None
    if not re.fullmatch(r"-?\d{1,5}", value):
        raise ValueError(words("a score is a whole number"))
    return int(value)


def _reason(form: dict[str, str]) -> str:
    reason = " ".join(form.get("reason", "").split())
    if not reason:
        raise ValueError(words("An amendment needs a reason."))
    if len(reason) > MAX_REASON or any(ord(c) < 32 for c in reason):
        raise ValueError(words("the reason is at most {n} characters of text", n=MAX_REASON))
    return reason


@admin
async def admin_amend(request: Request) -> Response:
    """An amendment: what the result should be (the outcome and the final scores; a field left empty
    keeps what is in effect) and the reason, kept beside the signed record (Store.add_amendment), whole:
    with the game points and spread that follow by the rules (amendments.for_record). The record itself
    never changes; the standings and exports read the amendment from then on."""
    rid = part(request, "rid")
    store = desk_of(request).store
    form = await read_form(request)
    data = views.result(store, rid)
    if data is None:
        raise HTTPException(404)
    current = data["current"]
    try:
        outcome = form.get("outcome", "")
        if outcome and outcome not in AMEND_OUTCOMES:
            raise ValueError(words("the outcome is left, right or draw"))
        scores = {s: _score(form.get(f"score_{s}", "")) for s in ("left", "right")}
        final = current["scores.final"]
        if any(v is not None for v in scores.values()):
            final = {s: scores[s] if scores[s] is not None else (final or {}).get(s) for s in ("left", "right")}
        reason = _reason(form)
        _winner_follows_scores(data["record"], outcome or current["outcome"], final)
        # the whole result as it counts: on top of the amendment in effect (a moved result stays moved)
        changes = amendments.on_top(data["amended"], amendments.for_record(data["record"], outcome or current["outcome"],
                                                                           final))
        if not amendments.changed(current, {**current, **changes}):
            raise ValueError(words("The amendment changes nothing."))
        warning = views.amend_warning(store, data, changes)
        if warning is not None and form.get("confirm") != "1":
            # a round older than the last paired one (issue 26): say what it changes before storing it
            kept = {k: form.get(k, "") for k in ("outcome", "score_left", "score_right", "reason")}
            return _result_page(request, data, warning={**warning, "form": kept})
        n = store.add_amendment(rid, changes, reason, who(request))
    except ValueError as exc:
        return _result_page(request, data, exc, status=400)
    return back(request, f"/admin/results/{quote(rid)}", "success",
                words("amendment {n} kept beside the signed result: it counts from now on", n=n))


def _winner_follows_scores(record: dict[str, Any], outcome: str | None, final: Any) -> None:
    """ValueError when a scored game (Crossword, A-Math, Kham Kom: decided by the final scores, XW-6)
    would be amended to a winner its amended final scores do not give (a forfeit or an agreed result
    is not decided by them): the form keeps the winner in
    effect selected, so changing only the scores could otherwise make a loser the winner."""
    if record.get("kind") != "crossword" or record.get("reason") not in ("score", None) or not final:
        return
    left, right = final.get("left"), final.get("right")
    if not isinstance(left, int) or not isinstance(right, int):
        return
    by_score = "left" if left > right else "right" if right > left else "draw"
    if outcome != by_score:
        raise ValueError(words("The winner does not follow the final scores {left}-{right} (XW-6: the higher "
                               "final score wins): choose {by_score}, or change the scores.", left=left, right=right,
                               by_score=words(by_score)))


@admin
async def admin_withdraw(request: Request) -> Response:
    """Withdraw the amendment in effect: a new entry of the trail with its reason, never a deletion
    (Store.withdraw_amendment); what counted before it counts again."""
    rid = part(request, "rid")
    store = desk_of(request).store
    form = await read_form(request)
    data = views.result(store, rid)
    if data is None:
        raise HTTPException(404)
    try:
        n = form.get("n", "")
        if not n.isdigit() or len(n) > 12:
            raise ValueError(words("no amendment to withdraw"))
        done = store.withdraw_amendment(rid, int(n), _reason(form), who(request))
    except ValueError as exc:
        return _result_page(request, data, exc, status=400)
    return back(request, f"/admin/results/{quote(rid)}", "success",
                words("amendment {n} withdrawn (entry {done} of the trail): what counted before it counts again",
                      n=int(n), done=done))


# the export forms of the event's page (admin_exports.html), as `gameclock export` takes them
EXPORT_CHOICES: dict[str, Any] = {
    "formats": ("tsh", "trf", "csv", "jsonl"), "encoded": ("tsh", "trf", "csv"), "encodings": ("utf-8", "windows-874"),
    "format_help": {"tsh": "a .t file a division, for tsh", "trf": "FIDE TRF16, a file a division, for Swiss programs",
                    "csv": "a line a game, for spreadsheets", "jsonl": "every result as signed, for gameclock import"}}
CHARSETS = {"utf-8": "utf-8", "windows-874": "windows-874"}   # the Content-Type's name of each encoding


def export_choices(query: Any) -> tuple[str, int | None, bool]:
    """(encoding, last round or None, absent) from an export's query, as `gameclock export` takes
    --encoding, --round and --absent; ValueError (said) for one it does not."""
    from gameclock.dock.pairing import MAX_ROUND

    encoding = query.get("encoding") or "utf-8"
    if encoding not in CHARSETS:
        raise ValueError(words("the encoding is utf-8 or windows-874"))
    last = (query.get("round") or "").strip()
    if last and (not re.fullmatch(r"\d{1,3}", last) or not 1 <= int(last) <= MAX_ROUND):
        raise ValueError(words("rounds 1 to {round}: a round 1-{max}, or empty for all", round=last[:10],
                               max=MAX_ROUND))
    return encoding, int(last) if last else None, query.get("absent") == "1"


@organiser
async def admin_export(request: Request) -> Response:
    """A download of the event's results as `gameclock export FMT --event EVENT` writes them (one file,
    or a zip of a file a division), with the query's --encoding, --round and --absent; refused: the
    event's page saying why, in its language (400 for a choice the command refuses too)."""
    from gameclock.organiser.exports import ExportError, file_stem
    from gameclock.organiser.exports.commands import FORMATS, export_outputs
    from gameclock.rules.loader import RuleError

    event = the_event(request)
    fmt = request.path_params["fmt"]
    if fmt not in FORMATS:
        raise HTTPException(404)
    store = desk_of(request).store
    try:
        encoding, last_round, absent = export_choices(request.query_params)
    except ValueError as exc:
        return render(request, "message.html", {"error": exc.args[0]}, event=event, status=400)
    try:
        outputs = await run_in_threadpool(export_outputs, store, fmt, event, last_round, encoding, absent)
    except (ExportError, RuleError, StoreError) as exc:
        return back(request, f"/admin/e/{quote(event)}", "error", words("export {fmt}: {why}", fmt=fmt, why=said_of(exc)))
    if len(outputs) == 1:
        name, data = outputs[0].name, outputs[0].data
        media = {"jsonl": "application/jsonl", "csv": "text/csv"}.get(fmt, "text/plain")
        media += f"; charset={CHARSETS[encoding]}"
    else:
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            for o in outputs:
                z.writestr(o.name, o.data)
        name, data, media = f"{file_stem(event)}-{fmt}.zip", buf.getvalue(), "application/zip"
    return Response(data, media_type=media, headers={"content-disposition": attachment(name)})
