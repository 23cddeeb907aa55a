"""`python -m bench files`: hostile files and lines fed to every reader of files from outside (issue 13).

N inputs (20,000; GAMECLOCK_BENCH_FILES sets another number), a fifth to each reader, through the
functions the commands call (never a subprocess per file):

  pairings   organiser.pairings.load_pairings (gameclock pairings)         documented error: PairingError
  import     organiser.commands_import.check_line, one line (gameclock import)       ... Refused
  rules      rules.commands_check.check_file (gameclock check-rules)                 ... RuleError
  wiring     device.wiring.load_wiring (the clock's --wiring file)                   ... WiringError
  state      the clock's state folder as it starts on it (issue 24 B6): settings.json
             (persist.settings), sequence, the newest game journal (persist.restore.attach: read,
             restored, written on), an outbox record (persist.outbox read with its rebuild), dock.key
             (dock.keystore), in turn, in a copy of a folder holding one confirmed game    ... RecordDamaged

Each input is drawn from a fixed seed: a valid file of its kind (the shipped rule and wiring files, a CSV,
a tsh file, a signed export line) mutated -- bytes flipped, inserted, deleted, repeated; quotes, commas,
semicolons, newlines, control characters and bidi overrides put in; the text re-encoded as Latin-1,
windows-874 or UTF-16 --, or garbage, or nested thousands deep, or a number of thousands of digits, or
huge (megabytes), or not a file at all (/dev/zero, a FIFO, a folder, nothing; for the state files: a
link to /dev/zero, a FIFO, a folder, nothing, or a sparse 1 GiB file in the file's place).

Figures:
  file_inputs        inputs fed, all readers together
  file_crashes       inputs whose reader raised anything but its documented error (0 is right)
  file_hangs         inputs whose reader took more than HANG_S (2 s) (0 is right)
  file_accepted      inputs a reader accepted (valid after mutation: whitespace, comments, ...)
  file_read_ms_max   the slowest read, ms
  file_read_ms_p99   the 99th percentile read, ms
The first few crashes are described on stderr (reader, input number, exception), for whoever fixes them.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import random
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType

from gameclock.device.wiring import WiringError, load_wiring
from gameclock.dock.sign import sign_result
from gameclock.organiser.commands_import import Refused, check_line
from gameclock.organiser.pairings import PairingError, load_pairings
from gameclock.organiser.store import Store
from gameclock.record import record_from_log
from gameclock.rules.commands_check import check_file
from gameclock.rules.loader import RuleError

REPO = Path(__file__).resolve().parents[1]
HANG_S = 2.0
ABORT_S = 10.0  # a read still running after this is stopped (a SIGALRM) and counted as a hang
KEY = bytes(range(32))

CSV_SEED = ("Round,Table,Player1,Player2,Score1\n# round 3\n3,1,\"Srisuk, Somchai\",Wong Anan,\n"
            "3,2,สมชาย ใจดี,กิ๊ก,\n3,,Chai,bye,\n")
TSH_SEED = ("Srisuk, Somchai 1650 4 2; 420; p12 1 2; board 1 2\nWong, Anan 1500 3 1; 390; p12 2 1; board 2 2\n"
            "Chai, Mali 1400 2 4; 410; p12 1 1; board 2 1\nDee, Porn 1300 1 3; 300; p12 2 2; board 1 1\n")
NASTY = ['"', ",", ";", "\t", "\n", "\r", "#", "[", "{", "=", "\x00", "\x1b", "\x7f", "\x85", "\u202e", "\u2028",
         "\ufeff", "ก", "ิ", "้", "9" * 30, "-", ".", "'", "\\", "]]", "}}", '"""', "\\u0000"]


class _Abort(Exception):
    """Raised by the alarm in a read that runs past ABORT_S."""


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise _Abort()


def _export_line() -> bytes:
    log = ("preset crossword\nlevel secondary\nevent 3\nround 1\ntable 4\nplayer left Anan\nplayer right Boon\n"
           "0 start left\n600 press left\n900 press right\n1300 finish\n1310 score left 412\n"
           "1311 score right 388\n1312 confirm left\n1313 confirm right\n")
    record = record_from_log(log, "t.log", "clockA", 1, 1_700_000_000.25, 1_700_000_001.55)
    line = {"id": record["id"], "record": record, "sig": sign_result(KEY, record),
            "kid": hashlib.sha256(KEY).hexdigest()[:16], "serial": "clockA",
            "received_at": "2024-11-02T03:50:00.125Z", "source": "serial:/dev/ttyACM0"}
    return json.dumps(line, ensure_ascii=False).encode("utf-8")


def _mutate(rng: random.Random, data: bytes) -> bytes:
    """One to four mutations of `data`, or a whole replacement (garbage, deep, huge, re-encoded)."""
    r = rng.random()
    if r < 0.03:
        return rng.randbytes(rng.randint(0, 4096))
    if r < 0.06:
        k = rng.choice([40, 1000, 5000, 100_000])
        opener, closer = rng.choice([("[", "]"), ("{a=", "}"), ('{"a":', "}"), ("a = [", "]")])
        return (opener * k + closer * k).encode()
    if r < 0.08:
        return data[: rng.randint(0, len(data))] + b"9" * rng.choice([30, 5000, 20_000]) + data[rng.randint(0, len(data)):]
    if r < 0.085:
        return data * rng.randint(500, 3000)  # megabytes
    if r < 0.12:
        text = data.decode("utf-8", "replace")
        codec = rng.choice(["latin-1", "cp874", "utf-16", "cp1252"])
        return text.encode(codec, "replace")
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.random()
        at = rng.randint(0, len(out))
        if op < 0.3 and out:
            i = rng.randrange(len(out))
            out[i] = rng.randrange(256)
        elif op < 0.6:
            out[at:at] = rng.choice(NASTY).encode("utf-8")
        elif op < 0.75:
            del out[at:at + rng.randint(1, 40)]
        elif op < 0.9:
            span = bytes(out[at:at + rng.randint(1, 60)])
            out[at:at] = span * rng.randint(1, 50)
        else:
            out[at:at] = rng.randbytes(rng.randint(1, 8))
    return bytes(out)


class _Reader:
    """One reader under test: how to feed it, its documented error, its tallies."""

    def __init__(self, name: str, seeds: list[bytes], feed: Callable[[bytes, int], None],
                 documented: type[Exception], pick: Callable[[random.Random], bytes] | None = None):
        self.name, self.seeds, self.feed, self.documented = name, seeds, feed, documented
        self.pick = pick or (lambda rng: rng.choice(self.seeds))  # the seed the next input is made from


STATE_FILES = {"settings": "settings.json", "sequence": "sequence", "journal": "games/000001.log",
               "record": "outbox/bench-000001.json", "key": "dock.key"}


def _state_reader(work: Path) -> _Reader:
    """The clock's state files (module docstring): seeds from a folder holding one confirmed game."""
    import queue
    import shutil

    from bench.repaircrash import confirmed_state
    from gameclock.dock.keystore import KeyStore
    from gameclock.loop import Loop
    from gameclock.persist.outbox import Outbox, RecordDamaged, Sequence
    from gameclock.persist.rebuild import rebuild
    from gameclock.persist.restore import attach
    from gameclock.persist.settings import SettingsStore
    from gameclock.rules.loader import load_presets

    base = work / "state-base"
    confirmed_state(base, serial="bench")
    (base / "settings.json").write_text(json.dumps({"round": 3, "table": 7, "language": "th",
                                                    "players": {"left": "สมชาย ใจดี", "right": "Boon"}}))
    (base / "dock.key").write_bytes(KEY.hex().encode() + b"\n")
    presets = load_presets()
    seeds = {kind: (base / name).read_bytes().rstrip(b"\0") for kind, name in STATE_FILES.items()}
    kinds = list(STATE_FILES)
    turn = [0]

    class Null:
        def show(self, frame: object) -> None:
            pass

        def beep(self, alert: object, text: str) -> None:
            pass

    def feed(data: bytes, i: int) -> None:
        kind = kinds[turn[0] % len(kinds)]
        turn[0] += 1
        state = work / "state"
        shutil.rmtree(state, ignore_errors=True)
        shutil.copytree(base, state)
        path = state / STATE_FILES[kind]
        path.unlink()
        if i % 250 < 5:  # now and then not a regular file at all, or a huge sparse one
            special = (i // 250) % 5
            if special == 0:
                os.symlink("/dev/zero", path)
            elif special == 1:
                os.mkfifo(path)
            elif special == 2:
                path.mkdir()
            elif special == 3:
                with open(path, "wb") as f:
                    f.truncate(1024 ** 3)
        else:
            path.write_bytes(data)
        if kind == "settings":
            SettingsStore(state).load()
        elif kind == "sequence":
            Sequence(state)
        elif kind == "key":
            _ = KeyStore(state).key
        elif kind == "record":
            Outbox(state, rebuild=rebuild).read("bench-000001")
        else:
            loop = Loop(queue.SimpleQueue(), presets, Null(), Null(), clock_serial="bench")
            journal, _ = attach(loop, state)
            journal.close()

    return _Reader("state", list(seeds.values()), feed, RecordDamaged,
                   pick=lambda rng: seeds[kinds[turn[0] % len(kinds)]])  # the kind whose turn it is


def bench_files(n: int | None = None, seed: int = 13) -> dict:
    n = n if n is not None else int(os.environ.get("GAMECLOCK_BENCH_FILES", "20000"))
    rng = random.Random(seed)
    crashes: list[str] = []
    hangs = accepted = 0
    times: list[float] = []
    with tempfile.TemporaryDirectory(prefix="gameclock-filefuzz-") as tmp:
        work = Path(tmp)
        specials = [Path("/dev/zero"), work / "fifo", work / "folder", work / "missing"]
        os.mkfifo(specials[1])
        specials[2].mkdir()
        store = Store(work / "pc.db")
        store.add_key("clockA", KEY)

        def file_reader(call: Callable[[Path], object], suffixes: list[str]) -> Callable[[bytes, int], None]:
            def feed(data: bytes, i: int) -> None:
                if i % 250 == 0:  # now and then not a regular file at all
                    call(specials[(i // 250) % len(specials)])
                    return
                path = work / f"in{rng.choice(suffixes)}"
                path.write_bytes(data)
                call(path)
            return feed

        rule_seeds = [p.read_bytes() for p in sorted((REPO / "rules").glob("*.toml"))]
        wiring_seeds = [(REPO / "hw" / "wiring.toml").read_bytes()] + [
            p.read_bytes() for p in sorted((REPO / "hw" / "examples").glob("*.toml"))]

        def rule(path: Path) -> object:
            # the file's name must be its preset's id: x.toml with the seeds' ids changed to x
            return check_file(str(path))

        readers = [
            _Reader("pairings", [CSV_SEED.encode(), TSH_SEED.encode(), CSV_SEED.encode("cp874", "replace"),
                                 b"\xef\xbb\xbf" + CSV_SEED.encode()],
                    file_reader(load_pairings, [".csv", ".t", ".txt", ""]), PairingError),
            _Reader("import", [_export_line()], lambda data, i: check_line(store, data), Refused),
            _Reader("rules", [s.replace(b'id = "', b'id = "in"  # ', 1) for s in rule_seeds],
                    file_reader(rule, [".toml"]), RuleError),
            _Reader("wiring", wiring_seeds, file_reader(load_wiring, [".toml"]), WiringError),
            _state_reader(work),
        ]
        previous = signal.signal(signal.SIGALRM, _alarm)
        quiet = [logging.getLogger(name) for name in ("gameclock.persist", "gameclock.dock")]
        levels = [q.level for q in quiet]
        for q in quiet:  # every damaged state file is logged: thousands of lines, not the bench's figures
            q.setLevel(logging.CRITICAL + 1)
        try:
            for i in range(n):
                reader = readers[i % len(readers)]
                data = _mutate(rng, reader.pick(rng)) if i % 50 else reader.pick(rng)
                signal.setitimer(signal.ITIMER_REAL, ABORT_S)
                started = time.perf_counter()
                try:
                    reader.feed(data, i)
                    accepted += 1
                except reader.documented:
                    pass
                except _Abort:
                    pass  # counted below: it took ABORT_S
                except Exception as exc:  # any other exception is what the bench counts
                    crashes.append(f"{reader.name} input {i}: {type(exc).__name__}: {str(exc)[:120]}")
                finally:
                    signal.setitimer(signal.ITIMER_REAL, 0)
                elapsed = time.perf_counter() - started
                if elapsed > HANG_S:
                    hangs += 1
                times.append(elapsed)
        finally:
            signal.signal(signal.SIGALRM, previous)
            for q, level in zip(quiet, levels, strict=True):
                q.setLevel(level)
            store.close()
    for line in crashes[:10]:
        print(f"bench files: crash: {line}", file=sys.stderr)
    times.sort()
    return {
        "file_inputs": n,
        "file_crashes": len(crashes),
        "file_hangs": hangs,
        "file_accepted": accepted,
        "file_read_ms_max": round(times[-1] * 1000, 3) if times else 0.0,
        "file_read_ms_p99": round(times[int(0.99 * (len(times) - 1))] * 1000, 3) if times else 0.0,
    }
