"""The game journal: the game's event log, written as it happens, durable, checked line by line (CL-6).

One file per game, `games/<seq>.log` in the state folder (`seq`: the clock's sequence number, six
digits, also the number of the game's result id). Each line is an event-log line
(gameclock.core.log) followed by `*` and the CRC-32 (zlib.crc32 of the line's UTF-8 text) in eight
lower-case hex digits:

    preset crossword*5b2c0d1e          header lines first (preset, game, event, round, table, ...)
    game 1*0f3d...
    0 wallclock 1763704962.250*...     wall-clock seconds at this game time (at the start, after a restore)
    1.5 start left*...                 core events (format_event), game-relative seconds to the ns
    3.25 press right*...
    3.75 checkpoint*...                a side is running: every CHECKPOINT_NS (0.5 s) of running time
    20.5 round 2*...                   the record info changed during the game (core.result.INFO_VERBS)
    130 score left 412*...             result entry lines (core.result's verbs), as the loop accepts them
    140 confirm right*...
    140 closed result GC1-17*...       the game is over for the journal: its result is in the outbox
                                       (or `closed abandoned`: a new game began without one)

Times are the game's: nanoseconds since the game was set up (`begin_game`), never raw monotonic
values (CLOCK_MONOTONIC restarts at boot). They never go backwards in a file.

The loop calls `begin_game`, `event`, `extra`, `checkpoint`, `put_result` on its own thread; each
only formats a line and hands it to the writer thread (gameclock.persist.writer), which appends and
fsyncs. `status` is the writer's ("" or "DISK FULL" / "DISK READ-ONLY" / "DISK ERROR").

Recovery (`Journal.recover`, at start, before the loop runs) reads the newest game file: a last line
that is torn (no newline, bad CRC) is dropped with a warning; a bad line with good lines after it is
corruption in the middle: logged as an error, the file is kept as `<seq>.log.bad`, and everything
before the bad line is used. gameclock.persist.restore then folds the lines back into a clock.
"""
from __future__ import annotations

import dataclasses
import logging
import os
import re
import time
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TypedDict

from gameclock.core.events import Event
from gameclock.core.log import EVENT_VERBS, HEADERS, Log, LogError, format_event, format_seconds, parse_log

from .fsio import FileSystem, atomic_write, disk_status
from .outbox import Outbox, Sequence, record_bytes
from .writer import Append, AppendFile, Call, Writer

log = logging.getLogger(__name__)

GAMES = "games"
MAX_JOURNAL = 8 * 1024 * 1024  # bytes read of a game's journal at most (a 2-hour game's: ~150 kB, 64 kB zeros ahead)
EDGE_GRACE_NS = 100_000_000    # a checkpoint is written this long after its instant (CL-1, restore.py)
# CL-6 (about 1 s of the running side's time lost at most), with a margin (issue 27): a crash loses the
# running side's time since the last line on the card, which is at most CHECKPOINT_NS + EDGE_GRACE_NS =
# 0.6 s old when the next is written -- plus however late the loop wakes to write it (a loaded Pi) and
# the card's fdatasync. The cadence was 0.9 s + 0.1 s: exactly the 1 s bound, no room for either
# (bench crash measured 996.8 and 1000.25 ms); at 0.6 s + 0.1 s a loaded machine still lost 864 ms once
# (a wake and a write 164 ms late); 0.5 s + 0.1 s leaves 0.3 s below 0.9 s for them. The price: a line
# (one card block) every 0.5 s of running time instead of 0.9 s.
CHECKPOINT_NS = 500_000_000
GAME_RE = re.compile(r"^(\d{1,12})\.log$")
CHECKPOINT, WALLCLOCK, CLOSED = "checkpoint", "wallclock", "closed"
JOURNAL_VERBS = (CHECKPOINT, WALLCLOCK, CLOSED)


# ------------------------------------------------------------------------------ the line format
class BadLine(ValueError):
    pass


def encode(text: str) -> bytes:
    """One journal line: `text*crc32hex\\n`."""
    if "\n" in text or "\r" in text:
        raise ValueError(f"a journal line is one line: {text!r}")
    body = text.encode("utf-8")
    return body + b"*%08x\n" % zlib.crc32(body)


HEX = b"0123456789abcdef"


def decode(raw: bytes) -> str:
    """The text of one line (without its newline); BadLine if its CRC or encoding is wrong."""
    body, star, crc = raw.rpartition(b"*")
    if not star or len(crc) != 8 or crc.translate(None, HEX):  # (translate: C speed, 8,000 lines a restore)
        raise BadLine("no *crc32 at the end")
    if zlib.crc32(body) != int(crc, 16):
        raise BadLine("CRC mismatch")
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        raise BadLine("not UTF-8") from None


@dataclass
class Scan:
    """The good lines of a journal file: (text, byte offset just after the line)."""
    lines: list[tuple[str, int]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    corrupt: bool = False  # a bad line with good lines after it (not just a torn end)

    @property
    def size(self) -> int:
        return self.lines[-1][1] if self.lines else 0


def scan(data: bytes, source: str = "<journal>") -> Scan:
    """Split and check a journal file's bytes. Stops at the first bad line. The zeros a journal is
    preallocated with (writer.AppendFile) end it: they are not a line."""
    out = Scan()
    pieces = data.rstrip(b"\0").split(b"\n")
    pos = 0
    for i, raw in enumerate(pieces):
        last = i == len(pieces) - 1
        if last and raw == b"":
            break
        try:
            if last:
                raise BadLine("no end of line")
            text = decode(raw)
        except BadLine as exc:
            later = [p for p in pieces[i + 1:-1] if _good(p)] if not last else []
            if later:
                out.corrupt = True
                out.problems.append(
                    f"{source}:{i + 1}: corrupt line in the middle ({exc}): kept the {len(out.lines)} "
                    f"lines before it, dropped {len(pieces) - 1 - i} after it ({len(later)} of them good)")
            else:
                out.problems.append(f"{source}:{i + 1}: torn last line dropped ({exc})")
            break
        pos += len(raw) + 1
        out.lines.append((text, pos))
    return out


def _good(raw: bytes) -> bool:
    try:
        decode(raw)
        return True
    except BadLine:
        return False


# ------------------------------------------------------------------------------ reading a game back
@dataclass
class Recovered:
    """The newest game journal, read back. `log` holds the good lines (parse_log: header, core
    events, and in `extra` every other timed line: result entry, checkpoint, wallclock, closed)."""
    seq: int
    path: str
    log: Log
    header: dict[str, str]       # every header line (core.log's, and any other the loop wrote)
    last_ns: int                 # the time of the last good line (game ns)
    size: int                    # bytes of the good lines: the file continues from here
    file_size: int               # bytes of data on disk, the preallocated zeros not counted (more than
                                 # size: a torn or corrupt end to cut)
    problems: list[str]
    corrupt: bool
    closed: list[str] | None     # the closing line's words after 'closed', or None: unfinished
    offsets: list[int] = field(default_factory=list)  # offsets[i]: bytes up to the end of line i+1

    def cut(self, n_lines: int, why: str) -> None:
        """Keep only the first `n_lines` lines: line n_lines+1 cannot be used (`why`), e.g. the clock
        refuses its event. Everything after it goes too, as after a corrupt line."""
        self.problems.append(f"{self.path}:{n_lines + 1}: {why} (kept the {n_lines} lines before it)")
        self.corrupt = True
        self.size = self.offsets[n_lines - 1] if n_lines else 0
        self.offsets = self.offsets[:n_lines]
        self.log = _cut_log(self.log, n_lines)
        self.last_ns = _last_ns(self.log)
        self.closed = None


def read_game(data: bytes, seq: int, path: str) -> Recovered:
    """Check and parse one game journal's bytes."""
    source = path
    sc = scan(data, source)
    problems = list(sc.problems)
    corrupt = sc.corrupt
    lines = sc.lines
    while True:
        log_, header, err = _parse(lines, source)
        if err is None:
            break
        problems.append(f"{err} (kept the {err.line_no - 1} lines before it)")
        corrupt = True
        lines = lines[:err.line_no - 1]
    closed = None
    if log_.extra and log_.extra[-1][2][0] == CLOSED and (
            not log_.events or log_.lines[-1] < log_.extra[-1][0]):
        closed = log_.extra[-1][2][1:]
    return Recovered(seq=seq, path=path, log=log_, header=header, last_ns=_last_ns(log_),
                     size=lines[-1][1] if lines else 0, file_size=len(data.rstrip(b"\0")), problems=problems,
                     corrupt=corrupt, closed=closed, offsets=[end for _, end in lines])


def _last_ns(lg: Log) -> int:
    """The time of the log's last timed line (game ns; 0 if it has none)."""
    # Log.extra's times are parse_seconds' integer ns (core.log annotates them float)
    times = [ev.at_ns for ev in lg.events] + [int(at) for _, at, _ in lg.extra]
    return max(times, default=0)


def _cut_log(lg: Log, n_lines: int) -> Log:
    keep = [i for i, no in enumerate(lg.lines) if no <= n_lines]
    return Log(header=dict(lg.header), events=[lg.events[i] for i in keep],
               lines=[lg.lines[i] for i in keep], extra=[x for x in lg.extra if x[0] <= n_lines])


def _parse(lines: list[tuple[str, int]], source: str) -> tuple[Log, dict[str, str], LogError | None]:
    """parse_log over the good lines. Header lines core.log does not know are kept aside (the text
    given to parse_log has a blank line there, so line numbers stay the file's). So are the
    checkpoints but the last (issue 14: a 2-hour game's journal is nearly all checkpoints, and only
    the last one's time matters to a restore; a fold advances to the same state with or without the
    others), so a restore parses a few hundred lines, not thousands."""
    header: dict[str, str] = {}
    text_lines = []
    verbs: set[str] = set()
    marker = f" {CHECKPOINT}"
    last_checkpoint = next((i for i in range(len(lines) - 1, -1, -1) if lines[i][0].endswith(marker)), -1)
    for i, (text, _) in enumerate(lines):
        if i != last_checkpoint and text.endswith(marker):
            text_lines.append("")
            continue
        words = text.split()
        if words and not words[0][0].isdigit():  # a header line
            name = words[0]
            rest = text[len(name):].strip()
            header[f"{name}.{rest.split()[0]}" if name == "player" and rest else name] = (
                rest.split(None, 1)[1] if name == "player" and len(rest.split(None, 1)) > 1 else rest)
            text_lines.append(text if name in HEADERS else "")
            continue
        if len(words) >= 2 and words[1] not in EVENT_VERBS:
            verbs.add(words[1])
        text_lines.append(text.replace("#", " "))
    try:
        return parse_log("\n".join(text_lines), source, extra_verbs=tuple(sorted(verbs))), header, None
    except LogError as exc:
        return Log(), header, exc


def flat_header(header: Mapping[str, object]) -> dict[str, str]:
    """The header lines of a game: name -> one-line text; None left out; a dict such as
    players = {"left": NAME} becomes player.left (the line `player left NAME`)."""
    out: dict[str, str] = {}
    for k, v in header.items():
        if v is None:
            continue
        if isinstance(v, dict):
            for sub, value in v.items():
                if value is not None:
                    out[f"{str(k).removesuffix('s')}.{sub}"] = " ".join(str(value).split())
        else:
            out[str(k)] = " ".join(str(v).split())
    return {k: v for k, v in out.items() if v}


def game_files(fs: FileSystem, games_dir: str) -> list[tuple[int, str]]:
    try:
        names = fs.listdir(games_dir)
    except FileNotFoundError:
        return []
    out = [(int(m.group(1)), os.path.join(games_dir, n)) for n in names if (m := GAME_RE.match(n))]
    return sorted(out)


# ------------------------------------------------------------------------------ the loop's journal
class Restored(TypedDict):
    """What restore brought back (`Journal.restored`)."""
    seq: int
    paused: bool  # a side was running: the restore paused it
    events: int   # core events folded again


class Journal:
    """The loop's side of the journal. Methods marked (loop) only format and enqueue; setup methods
    (`open`, `recover`) run before the loop does and may block on the disk."""

    def __init__(self, state_dir: str | os.PathLike[str], *, fs: FileSystem | None = None,
                 writer: Writer | None = None, outbox: Outbox | None = None,
                 wall: Callable[[], float] = time.time, checkpoint_ns: int = CHECKPOINT_NS):
        self.dir = os.fspath(state_dir)
        self.fs = fs or FileSystem()
        self.games_dir = os.path.join(self.dir, GAMES)
        self.writer = writer or Writer(self.fs)
        self.outbox = outbox or Outbox(self.dir, self.fs)
        self.wall = wall
        self.checkpoint_ns = checkpoint_ns
        self.sequence: Sequence | None = None
        self.seq: int | None = None      # the open game's sequence number (None: no game open)
        self.file: AppendFile | None = None
        self.zero_ns = 0                 # session ns of the open game's time 0
        self.last_ns = 0                 # game ns of the last line written (times never go back)
        self.last_at: int | None = None  # session ns of the last line (the checkpoint timer's base)
        self.header: dict[str, str] = {}
        self.walls: list[tuple[int, float]] = []  # (game ns, wall-clock s) of the open game
        self.restored: Restored | None = None  # set by restore

    # ------------------------------------------------------------------ setup
    def open(self) -> Journal:
        """Make the folders, clean up after a crash (outbox temp files), load the sequence counter,
        start the writer thread."""
        try:
            self.fs.mkdir(self.games_dir)
            self.outbox.prepare()
        except OSError as exc:  # a full or read-only disk must not stop the clock: show it, retry
            log.error("journal: cannot prepare %s: %s", self.dir, exc)
            self.writer.status = disk_status(exc)
            self.writer.submit(Call(self._prepare, f"prepare {self.dir}"))
        try:
            files = game_files(self.fs, self.games_dir)
        except OSError as exc:
            log.error("journal: cannot list %s: %s", self.games_dir, exc)
            files = []
        self.sequence = Sequence(self.dir, self.fs, floor=files[-1][0] if files else 0)
        self.writer.start()
        return self

    def counter(self) -> Sequence:
        """The sequence counter, loaded by `open`."""
        if self.sequence is None:
            raise RuntimeError("the journal is not open yet (Journal.open)")
        return self.sequence

    def _prepare(self, fs: FileSystem) -> None:
        fs.mkdir(self.games_dir)
        self.outbox.prepare()

    def recover(self) -> Recovered | None:
        """The newest game journal, read back (None if there is none). Problems are logged."""
        files = game_files(self.fs, self.games_dir)
        if not files:
            return None
        seq, path = files[-1]
        # OSError (the caller says LAST GAME UNREADABLE): also a FIFO, a device, a link or a file over
        # MAX_JOURNAL (fsio.NotReadable: never waited for, never read whole; issue 24 B6)
        rec = read_game(self.fs.read_bytes(path, MAX_JOURNAL), seq, path)
        for p in rec.problems:
            (log.error if rec.corrupt else log.warning)("journal: %s", p)
        return rec

    @property
    def status(self) -> str:
        return self.writer.status

    # ------------------------------------------------------------------ (loop) a game
    def begin_game(self, header: Mapping[str, object], at_ns: int) -> int:
        """(loop) A new game's journal, its time 0 at session `at_ns`. `header`: name -> value
        (preset, game, event, round, table, player.left, ...). A game still open is closed first
        (`closed abandoned`). Returns the game's sequence number."""
        if self.file is not None:
            self.end_game("abandoned", at_ns)
        sequence = self.counter()
        seq = sequence.allocate()
        path = os.path.join(self.games_dir, f"{seq:06d}.log")
        self.writer.submit(Call(lambda fs: sequence.store(fs, seq), f"sequence {seq}"))
        file = AppendFile(path)
        self.seq, self.file = seq, file
        self.zero_ns, self.last_ns, self.last_at = at_ns, 0, at_ns
        self.header = flat_header(header)
        for name, value in self.header.items():
            self._write(file, f"{name.replace('.', ' ')} {value}")
        self.walls = []
        self._wallclock(at_ns)
        return seq

    def continue_game(self, rec: Recovered, at_ns: int) -> None:
        """Append to a recovered game's file again (gameclock.persist.restore), its game time
        continuing at session `at_ns` (= rec.last_ns: the loop's session time now equals game time).
        A torn or corrupt end is cut first (a corrupt file is kept as `<seq>.log.bad` before that)."""
        if self.file is not None:
            self.end_game("abandoned", at_ns)
        data_size = rec.file_size
        if rec.size < data_size:
            if rec.corrupt:
                bad = rec.path + ".bad"
                self.writer.submit(Call(lambda fs: atomic_write(fs, bad, fs.read_bytes(rec.path, MAX_JOURNAL)),
                                        f"keep {bad}"))
            self.writer.submit(Call(lambda fs: _truncate(fs, rec.path, rec.size), f"cut {rec.path}"))
        self.seq, self.file = rec.seq, AppendFile(rec.path, rec.size, new=False)
        self.zero_ns = at_ns - rec.last_ns
        self.last_ns, self.last_at = rec.last_ns, at_ns
        self.header = dict(rec.header)
        self.walls = []
        for _, at, words in rec.log.extra:
            if words[0] == WALLCLOCK and len(words) == 2:
                try:
                    self.walls.append((int(at), float(words[1])))
                except ValueError:
                    pass
        self._wallclock(at_ns)

    def _wallclock(self, at_ns: int) -> None:
        """A `wallclock` line: the wall-clock time at this game instant (at the start and after each
        restore: the game's time stands still while the clock is off, the wall clock does not)."""
        wall = self.wall()
        self._timed(at_ns, [WALLCLOCK, f"{wall:.3f}"])
        self.walls.append((self.last_ns, wall))

    def wall_at(self, game_ns: int) -> float | None:
        """The wall-clock time (time.time()) of an instant of the open game, from its last
        `wallclock` line at or before it (None: no such line)."""
        best = None
        for at, wall in self.walls:
            if at <= game_ns:
                best = wall + (game_ns - at) / 1e9
        return best

    def event(self, ev: Event) -> None:
        """(loop) A core event the clock accepted (`ev.at_ns`: session ns)."""
        if self.file is None:
            return
        t = self._game_ns(ev.at_ns)
        self._write(self.file, format_event(dataclasses.replace(ev, at_ns=t)))

    def extra(self, at_ns: int, words: list[str]) -> None:
        """(loop) Any other timed line, e.g. result entry: `extra(at, ["score", "left", "412"])`."""
        self._timed(at_ns, [str(w) for w in words])

    def checkpoint(self, at_ns: int) -> None:
        """(loop) The running side's time is good up to session `at_ns`."""
        self._timed(at_ns, [CHECKPOINT])

    def put_result(self, record: Mapping[str, object], at_ns: int | None = None) -> None:
        """(loop) A confirmed result: into the outbox durably, then the game is closed
        (`closed result ID`). The writer does both in this order, so a crash in between leaves the
        game open with both confirmations: recovery puts the record again (same id: one file)."""
        rid, data = record_bytes(record)
        self.writer.submit(Call(lambda fs: self.outbox.put_bytes(rid, data), f"outbox {rid}"))
        self.end_game(f"result {rid}", self.last_at if at_ns is None else at_ns)

    def end_game(self, reason: str, at_ns: int | None = None) -> None:
        """(loop) Close the open game's journal (`closed REASON`)."""
        if self.file is None:
            return
        at = self.last_at if at_ns is None else at_ns
        assert at is not None, "a game open has its last line's time (begin_game, continue_game)"
        self._timed(at, [CLOSED, *reason.split()])
        file = self.file
        self.writer.submit(Call(file.release, f"close {file.path}"))
        self.file, self.seq = None, None

    def close(self, timeout: float = 5.0) -> int:
        """A clean stop: everything queued written (bounded wait), files closed."""
        if self.file is not None:
            self.writer.submit(Call(self.file.release, f"close {self.file.path}"))
        return self.writer.close(timeout)

    # ------------------------------------------------------------------ lines
    def _game_ns(self, at_ns: int) -> int:
        t = max(at_ns - self.zero_ns, self.last_ns, 0)
        self.last_ns = t
        self.last_at = max(at_ns, self.last_at if self.last_at is not None else at_ns)
        return t

    def _timed(self, at_ns: int, words: list[str]) -> None:
        if self.file is None:
            return
        self._write(self.file, f"{format_seconds(self._game_ns(at_ns))} {' '.join(words)}")

    def _write(self, file: AppendFile, text: str) -> None:
        self.writer.submit(Append(file, encode(text)))


def _truncate(fs: FileSystem, path: str, size: int) -> None:
    fd = fs.open(path, os.O_WRONLY)
    try:
        fs.ftruncate(fd, size)
        fs.fsync(fd)
    finally:
        fs.close(fd)
