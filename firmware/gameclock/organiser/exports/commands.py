"""`gameclock export tsh|trf|csv|jsonl [--event ID] [--round N] [--db FILE] [--out DIR|FILE|-]
[--encoding utf-8|windows-874] [--absent]`: the stored results as files for the organisers' programs
(exports/__init__.py and each format's module say what is written).

- tsh, trf: one file per division, DIVISION.t / DIVISION.trf, into the folder `--out` (default the
  current one); `--out FILE` or `-` (stdout) when there is one division (pick it with --event).
- csv, jsonl: one file, to stdout by default (`--out FILE`, or `--out DIR` for DIR/EVENT.csv,
  DIR/results.jsonl ...).
- `--round N`: rounds 1..N only (tsh, trf, csv): e.g. while round N+1's results come in.
- `--encoding`: tsh, trf, csv (default utf-8; windows-874 is tsh's Thai profile); jsonl is UTF-8.
- `--absent` (trf): a round a player has neither a result nor a bye in is a known absence (`Z`).

Each file written is named on stderr with its size and what it holds; warnings (a name cut to TRF's
33 columns, a tsh game whose outcome disagrees with its scores) go to stderr too. Nothing is
written when the export fails: its one-line reason goes to stderr, exit status 1 (also when the
database cannot be used).
"""
from __future__ import annotations

import argparse
import io
import os
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from gameclock.dataerrors import display_path
from gameclock.organiser.exports import ExportError, divisions, file_stem, only_rounds
from gameclock.organiser.said import words
from gameclock.organiser.standings.games import Bye, games_from_summaries
from gameclock.organiser.store import Store, StoreError, default_db_path
from gameclock.rules.loader import RuleError

FORMATS = ("tsh", "trf", "csv", "jsonl")
ENCODINGS = ("utf-8", "windows-874")


@dataclass
class Output:
    name: str        # file name (in --out DIR)
    data: bytes      # the file (b"" when `stream` writes it)
    about: str       # what it holds, for the "wrote" line ("" when `stream` says it)
    # streamed (jsonl): writes the file to a binary file object row by row, returns what it holds
    stream: Callable[[IO[bytes]], str] | None = None

    def write(self, fileobj: IO[bytes]) -> str:
        """Write the file to `fileobj`; returns what it holds."""
        if self.stream is None:
            fileobj.write(self.data)
            return self.about
        return self.stream(fileobj)


def stored_byes(store: Store, event: str | None) -> list[Bye]:
    """The byes loaded with the rounds' pairings (`gameclock pairings`)."""
    return [Bye(b["event"], b["round"], b["player"]) for b in store.byes(event)]


def event_ratings(store: Store, event: str | None) -> dict[str, int]:
    """{player: rating} of an event the PC pairs, from its player list (exports/__init__.py): by the
    name the clocks were given, and by the Latin name where no player's name is that; {} for another."""
    if event is None:
        return {}
    players = store.event_players(event)
    ratings = {p["latin"]: int(p["rating"]) for p in players if p["latin"]}
    ratings.update({p["name"]: int(p["rating"]) for p in players})
    return ratings


def export_outputs(store: Store, fmt: str, event: str | None = None, last_round: int | None = None,
                   encoding: str = "utf-8", absent: bool = False,
                   warnings: list[str] | None = None, streamed: bool = False) -> list[Output]:
    """The files `gameclock export FMT` writes, in memory; with `streamed`, the jsonl file is
    instead written row by row from the store when the Output is written (`Output.write`, while the
    store is open): its records are never all in memory."""
    from gameclock.organiser.exports import csv as csv_export
    from gameclock.organiser.exports import jsonl as jsonl_export
    from gameclock.organiser.exports import trf as trf_export
    from gameclock.organiser.exports import tsh as tsh_export

    if fmt == "jsonl":
        if encoding != "utf-8":
            raise ExportError(words("jsonl is always UTF-8 (what gameclock import reads)"))
        if last_round is not None:
            raise ExportError("jsonl exports whole results; --round is for tsh, trf and csv")
        name = f"{file_stem(event) if event else 'results'}.jsonl"

        def stream(fileobj: IO[bytes]) -> str:
            text = io.TextIOWrapper(fileobj, encoding="utf-8", newline="\n", write_through=False)
            try:
                n = jsonl_export.export(store, text, event)
                text.flush()
            finally:
                text.detach()  # the caller's file object stays open
            return f"{n} result{'' if n == 1 else 's'}"

        if streamed:
            return [Output(name, b"", "", stream)]
        buf = io.BytesIO()
        about = stream(buf)
        return [Output(name, buf.getvalue(), about)]
    if fmt not in FORMATS:
        raise ExportError(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})")
    games = games_from_summaries(store.summaries(event=event))   # each result's summary, streamed
    byes = stored_byes(store, event)
    games, byes = only_rounds(games, byes, last_round)
    if not games:
        raise ExportError(words("no results stored for event {event} in rounds 1-{round}", event=event, round=last_round)
                          if event is not None and last_round is not None else
                          words("no results stored for event {event}", event=event) if event is not None else
                          words("no results stored in rounds 1-{round}", round=last_round) if last_round is not None
                          else words("no results stored"))
    divs = divisions(games, byes)
    for d in divs:
        d.ratings = event_ratings(store, d.event)
    if fmt == "csv":
        return [Output(f"{file_stem(event) if event else 'results'}.csv", csv_export.export(divs, encoding),
                       f"{len(games)} games, {len(byes)} byes, {len(divs)} division"
                       + ("" if len(divs) == 1 else "s"))]
    files = (tsh_export.export(divs, encoding, warnings) if fmt == "tsh"
             else trf_export.export(divs, encoding, absent, warnings))
    return [Output(name, data, f"{len(d.players)} players, {d.rounds} rounds")
            for (name, data), d in zip(files.items(), divs, strict=True)]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("format", choices=FORMATS, help="tsh (.t per division), trf (FIDE TRF16 per "
                        "division), csv (a line per game), jsonl (every result, for gameclock import)")
    parser.add_argument("--event", metavar="ID", default=None, help="only this event's results")
    parser.add_argument("--round", metavar="N", type=int, default=None,
                        help="only rounds 1..N (tsh, trf, csv)")
    parser.add_argument("--db", metavar="FILE", default=None,
                        help="the database (default: $GAMECLOCK_DB or ./gameclock.db)")
    parser.add_argument("--out", metavar="DIR|FILE|-", default=None,
                        help="a folder (tsh and trf default: the current one), a file, or - for stdout "
                             "(csv and jsonl default)")
    parser.add_argument("--encoding", choices=ENCODINGS, default="utf-8",
                        help="tsh, trf, csv: utf-8 (default) or windows-874 (tsh's Thai profile)")
    parser.add_argument("--absent", action="store_true",
                        help="trf: a round without a result or a bye is a known absence (Z)")


def _write_file(path: Path, output: Output) -> tuple[str, int]:
    """Write `path` whole or not at all (a temp file beside it, then renamed over it); returns what it
    holds and its size in bytes."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            about = output.write(f)
            size = f.tell()
        os.replace(tmp, path)
        return about, size
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_outputs(outputs: list[Output], out: str, stdout: IO[bytes] | None = None,
                  err: IO[str] | None = None) -> None:
    """Write the outputs to `out` (a folder, a file, or '-'); ExportError if that cannot be."""
    stdout = stdout if stdout is not None else sys.stdout.buffer
    err = err if err is not None else sys.stderr
    several = f"{len(outputs)} files ({', '.join(o.name for o in outputs)})"
    if out == "-":
        if len(outputs) != 1:
            raise ExportError(f"{several}: give --out DIR for one file each, or pick one with --event")
        outputs[0].write(stdout)
        stdout.flush()
        return
    target = Path(out)
    if target.is_dir():
        paths = [target / o.name for o in outputs]
    elif len(outputs) == 1:
        if not target.parent.is_dir():
            raise ExportError(f"{display_path(target.parent)}: no such folder")
        paths = [target]
    else:
        raise ExportError(f"{several}, and {display_path(target)} is not a folder: give --out DIR, "
                          "or pick one with --event")
    for o, path in zip(outputs, paths, strict=True):
        try:
            about, size = _write_file(path, o)
        except OSError as exc:
            raise ExportError(f"{display_path(path)}: cannot write ({exc.strerror})") from None
        print(f"wrote {display_path(path)}: {about}, {size} bytes", file=err)


def run(args: argparse.Namespace) -> int:
    db_path = args.db or default_db_path()
    if not Path(db_path).is_file():
        print(f"{display_path(db_path)}: no such database (give --db FILE)", file=sys.stderr)
        return 1
    out = args.out if args.out is not None else ("." if args.format in ("tsh", "trf") else "-")
    warnings: list[str] = []
    try:
        with Store(db_path, readonly=True) as store:
            outputs = export_outputs(store, args.format, args.event, args.round, args.encoding,
                                     args.absent, warnings, streamed=True)
            for w in warnings:
                print(f"warning: {w}", file=sys.stderr)
            write_outputs(outputs, out)  # with the store open: jsonl is streamed from it
    except (StoreError, ExportError, RuleError) as exc:
        print(f"gameclock export {args.format}: {exc}", file=sys.stderr)
        return 1
    return 0
