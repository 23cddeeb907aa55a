"""Issue 24 B6: every file the clock reads from its state folder at start (and its identity's files)
is read with its limit, never waited for and never taken whole.

Seen in the issue: a sparse 1 GiB `settings.json` reached 1.05 GB of memory before "too large" (read
whole, then checked); `settings.json` as a FIFO or as a link to /dev/zero, `sequence` as a FIFO and the
newest journal as a FIFO each blocked the clock's start for 40 s and more.

For each kind of file and each hostile thing in its place -- a FIFO nobody writes to, a symbolic link to
/dev/zero, a sparse file of 1 GiB -- a child process reads it as the clock does (statefile_child.py),
under a timeout and a memory cap, and must give:
- the one-line log notice naming the file and why (a pipe, a link or a device, too large);
- what a damaged file of that kind gives: settings.json kept aside, the defaults, SETTINGS RESET on
  the screens; the sequence counted on from the journals on disk; the newest journal not restored,
  LAST GAME UNREADABLE on the screens; an outbox record built again from its journal (the hostile
  thing kept aside as .damaged); dock.key (and the pending dock.key.new): no key (the clock counts as
  not enrolled); the identity's
  files: the host name's serial, as on a machine without them;
- no more than 32 MiB of peak memory added by the read (the issue's read took 1 GiB).
"""
from __future__ import annotations

import json
import os
import resource
import select
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.repaircrash import confirmed_state
from gameclock.persist.journal import encode

HERE = Path(__file__).resolve().parent
TIMEOUT_S = 30          # a child starts in about a second; the FIFOs blocked for good
MAX_GROWTH_KB = 32 * 1024
GIB = 1024 * 1024 * 1024
HOSTILE = ("fifo", "zero-link", "sparse-1gib")
REASON = {"fifo": ("pipe",), "zero-link": ("symbolic link", "character device"), "sparse-1gib": ("too large",)}
RID = "bench-000001"


def make_hostile(path: Path, what: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() or path.is_symlink():
        path.unlink()
    if what == "fifo":
        os.mkfifo(path)
    elif what == "zero-link":
        os.symlink("/dev/zero", path)
    else:
        with open(path, "wb") as f:
            f.truncate(GIB)  # no block written: a sparse file whose size says 1 GiB


def same_kind(path: Path, what: str) -> bool:
    mode = os.lstat(path).st_mode
    return {"fifo": stat.S_ISFIFO(mode), "zero-link": stat.S_ISLNK(mode),
            "sparse-1gib": stat.S_ISREG(mode) and os.lstat(path).st_size == GIB}[what]


def _cap_memory() -> None:  # (in the child, before exec) a read of /dev/zero must not take the machine
    resource.setrlimit(resource.RLIMIT_AS, (3 * GIB, 3 * GIB))


def read_in_child(kind: str, state: Path, *extra: str) -> dict:
    try:
        done = subprocess.run([sys.executable, str(HERE / "statefile_child.py"), kind, str(state), *extra],
                              capture_output=True, text=True, timeout=TIMEOUT_S, preexec_fn=_cap_memory,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"reading the {kind} file did not end in {TIMEOUT_S} s (a hang)")
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


def check_notice(out: dict, name: str, what: str) -> None:
    assert out["grew_kb"] <= MAX_GROWTH_KB, f"the read added {out['grew_kb']} kB of peak memory"
    assert all("\n" not in line for line in out["log"])
    said = [line for line in out["log"] if name in line and any(r in line for r in REASON[what])]
    assert said, f"no log line names {name} and why ({REASON[what]}): {out['log']}"


@pytest.mark.parametrize("what", HOSTILE)
def test_settings(tmp_path, what):
    make_hostile(tmp_path / "settings.json", what)
    out = read_in_child("settings", tmp_path)
    check_notice(out, "settings.json", what)
    assert out["notice"] == "SETTINGS RESET" and out["defaults"] is True
    assert out["kept_aside"] == str(tmp_path / "settings.json.bad-1")  # kept aside, as a damaged file is
    assert same_kind(tmp_path / "settings.json.bad-1", what) and not os.path.lexists(tmp_path / "settings.json")


def closed_journal(state: Path, seq: int) -> None:
    """games/<seq>.log: a game set up and abandoned (closed): nothing to restore, its number is used."""
    (state / "games").mkdir(parents=True, exist_ok=True)
    lines = ["preset crossword", "game 1", "0 wallclock 1763704962.250", "1 closed abandoned"]
    (state / "games" / f"{seq:06d}.log").write_bytes(b"".join(encode(t) for t in lines))


@pytest.mark.parametrize("what", HOSTILE)
def test_sequence(tmp_path, what):
    closed_journal(tmp_path, 5)
    make_hostile(tmp_path / "sequence", what)
    out = read_in_child("sequence", tmp_path)
    check_notice(out, "sequence", what)
    # CL-5: ids never repeat: the counter goes on from the newest journal's number (5)
    assert out["last"] == 5 and out["stored"] == 0
    assert out["restored"] is None and out["start_notice"] == ""


@pytest.mark.parametrize("what", HOSTILE)
def test_newest_journal(tmp_path, what):
    closed_journal(tmp_path, 1)
    make_hostile(tmp_path / "games" / "000002.log", what)
    out = read_in_child("journal", tmp_path)
    check_notice(out, "000002.log", what)
    assert out["restored"] is None and out["start_notice"] == "LAST GAME UNREADABLE"
    assert out["last"] == 2  # its number is taken all the same: the next game is 3


@pytest.mark.parametrize("what", HOSTILE)
def test_outbox_record(tmp_path, what):
    record = confirmed_state(tmp_path, serial="bench")  # one confirmed game, its record in outbox/
    assert record["id"] == RID
    path = tmp_path / "outbox" / f"{RID}.json"
    make_hostile(path, what)
    out = read_in_child("outbox", tmp_path, RID)
    check_notice(out, f"{RID}", what)
    assert out == dict(out, id=RID)  # built again from its journal (CL-5: the result is not lost)
    assert stat.S_ISREG(os.lstat(path).st_mode) and json.loads(path.read_text())["id"] == RID
    assert same_kind(path.with_name(f"{RID}.json.damaged"), what)  # what was there, kept aside


@pytest.mark.parametrize("name", ["dock.key", "dock.key.new"])
@pytest.mark.parametrize("what", HOSTILE)
def test_dock_key(tmp_path, what, name):
    """dock.key, and the pending key an enrollment the arbiter confirmed keeps beside it (dock.key.new)."""
    make_hostile(tmp_path / name, what)
    out = read_in_child("dock-key", tmp_path)
    check_notice(out, name, what)
    # no key: the clock counts as not enrolled (DOCK ENROL? when docked); no pending key
    assert out["key"] is None and out["pending"] is None


@pytest.mark.parametrize("where", ["sys/firmware/devicetree/base/serial-number", "proc/cpuinfo"])
@pytest.mark.parametrize("what", HOSTILE)
def test_identity(tmp_path, what, where):
    make_hostile(tmp_path / where, what)
    out = read_in_child("identity", tmp_path)
    check_notice(out, os.path.basename(where), what)
    assert out["serial"] == out["empty_root_serial"]  # the host name's, as on a machine without the file


def vm_hwm_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError("no VmHWM")


def test_gameclock_run_starts_with_every_state_file_hostile(tmp_path):
    """The issue's start-up, all at once: `gameclock run` (mock pins, PNG frames, docked to a pty) on a
    state folder whose settings.json is a sparse 1 GiB file, whose sequence, newest journal and lock file
    are FIFOs and whose dock.key is a link to /dev/zero. It starts at once, says each in its log, shows the
    notice on its screens, stays small, and stops cleanly."""
    state = tmp_path / "state"
    closed_journal(state, 1)
    make_hostile(state / "settings.json", "sparse-1gib")
    make_hostile(state / "sequence", "fifo")
    make_hostile(state / "games" / "000002.log", "fifo")
    make_hostile(state / "dock.key", "zero-link")
    make_hostile(state / "gameclock.lock", "fifo")
    master, slave = os.openpty()
    log = tmp_path / "run.log"
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "JOURNAL_STREAM")}
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "gameclock", "run", "--sim-pins", "--display", "png",
                                 str(tmp_path / "frames"), "--state-dir", str(state), "--dock", os.ttyname(slave)],
                                env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                preexec_fn=_cap_memory)
    try:
        deadline = time.monotonic() + TIMEOUT_S
        seen = bytearray()  # what the clock wrote to its dock (its hellos: it read dock.key for them)
        while "(pid " not in log.read_text(errors="replace") or b'"t":"hello"' not in drain(master, seen):
            assert proc.poll() is None, log.read_text(errors="replace")
            assert time.monotonic() < deadline, f"not started in {TIMEOUT_S} s:\n{log.read_text(errors='replace')}"
            time.sleep(0.05)
        hwm = vm_hwm_kb(proc.pid)
        print(f"gameclock run started with every state file hostile: peak {hwm} kB")
    finally:
        proc.terminate()
        rc = proc.wait(15)
        for fd in (master, slave):
            os.close(fd)
    said = log.read_text(errors="replace")
    assert rc == 0, said
    for line in ("settings.json: too large", "sequence: not a regular file (a pipe (FIFO))",
                 "000002.log: not a regular file (a pipe (FIFO))", "dock.key: not a regular file (a symbolic link)",
                 "gameclock.lock: not a regular file (a FIFO or a device): kept aside"):
        assert line in said, said
    assert hwm < 200 * 1024, f"gameclock run reached {hwm} kB"  # the read of settings.json: 1.05 GB
    frames = (tmp_path / "frames" / "frames.log").read_text()
    assert "LAST GAME UNREADABLE" in frames  # on the screens until the arbiter's next key


def drain(fd: int, into: bytearray) -> bytearray:
    while select.select([fd], [], [], 0)[0]:
        try:
            into.extend(os.read(fd, 65536))
        except OSError:
            break
    return into


@pytest.mark.parametrize("what", HOSTILE)
def test_the_daemons_lock_file(tmp_path, what, caplog):
    """gameclock.lock (daemon.take_lock): a FIFO or a link in its place failed every start (ESPIPE,
    EINVAL: systemd would restart the clock for ever); a sparse file's zeros are no pid."""
    from gameclock.daemon import take_lock

    make_hostile(tmp_path / "gameclock.lock", what)
    with caplog.at_level("WARNING", logger="gameclock"):
        fd, before = take_lock(tmp_path)
    try:
        assert before == ""  # no killed daemon's pid there
        assert stat.S_ISREG(os.fstat(fd).st_mode)
        assert (tmp_path / "gameclock.lock").read_text() == f"{os.getpid()}\n"
    finally:
        os.close(fd)
    if what != "sparse-1gib":  # a regular file is the lock's own kind: used as it is
        assert same_kind(tmp_path / "gameclock.lock.bad-1", what)
        assert any("gameclock.lock: not a regular file" in r.getMessage() for r in caplog.records)


# ------------------------------------------------------------------ the temp files the clock writes through
WRITE_CHILD = r"""
import sys
from gameclock.dock.keystore import KeyStore
from gameclock.persist.journal import Journal
from gameclock.persist.settings import SettingsStore
from gameclock.ui.menu import Settings
kind, state = sys.argv[1], sys.argv[2]
if kind == "sequence":  # a game begins: its number is stored by the writer thread (atomic_write)
    journal = Journal(state).open()
    journal.begin_game({"preset": "crossword"}, 0)
    print("flushed" if journal.writer.flush(10) else "not flushed", flush=True)
    journal.close()
elif kind == "settings":  # the arbiter changed a setting (atomic_write)
    SettingsStore(state).save(Settings())
    print("flushed", flush=True)
elif kind == "dock.key":  # an enrollment's key (KeyStore.set)
    KeyStore(state).set(bytes(range(32)))
    print("flushed", flush=True)
else:  # the key the arbiter confirmed, kept aside (KeyStore.set_pending)
    KeyStore(state).set_pending(bytes(range(32)))
    print("flushed", flush=True)
"""
WRITTEN = {"sequence": ("sequence", b"1\n"), "settings": ("settings.json", None),
           "dock.key": ("dock.key", bytes(range(32)).hex().encode() + b"\n"),
           "dock.key.new": ("dock.key.new", bytes(range(32)).hex().encode() + b"\n")}


@pytest.mark.parametrize("what", ["fifo", "link", "folder"])
@pytest.mark.parametrize("kind", list(WRITTEN))
def test_a_hostile_temp_file_never_stalls_a_write_nor_is_written_through(tmp_path, kind, what):
    # A fresh-eyes review of issue 24 ("no file can stall the clock"). A state file is replaced by
    # writing `.tmp-NAME` and renaming it. Whatever sits at that temp name -- a FIFO (an open for
    # writing waits for a reader for ever: the writer thread stalled, every later journal line queued
    # behind it, nothing on the screen), a symbolic link (written through: another file overwritten),
    # a folder (every retry failed: DISK ERROR for good) -- the write must be done, promptly, and only
    # into the state folder.
    name, content = WRITTEN[kind]
    tmp = tmp_path / f".tmp-{name}"
    victim = tmp_path.parent / f"{tmp_path.name}-victim"
    victim.write_bytes(b"not the clock's\n")
    if what == "fifo":
        os.mkfifo(tmp)
    elif what == "link":
        os.symlink(victim, tmp)
    else:
        tmp.mkdir()
    try:
        done = subprocess.run([sys.executable, "-c", WRITE_CHILD, kind, str(tmp_path)], capture_output=True,
                              text=True, timeout=TIMEOUT_S, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"writing {name} with a {what} at {tmp.name} did not end in {TIMEOUT_S} s (a hang)")
    assert done.returncode == 0 and done.stdout.split() == ["flushed"], done.stdout + done.stderr[-2000:]
    assert victim.read_bytes() == b"not the clock's\n"  # nothing written through a link
    written = tmp_path / name
    assert stat.S_ISREG(os.lstat(written).st_mode)
    if content is not None:
        assert written.read_bytes() == content
    else:
        assert json.loads(written.read_text())  # the settings, as JSON


def test_a_folder_among_the_outboxs_temp_files_never_stalls_the_writer(tmp_path):
    # outbox/ is cleaned of `.tmp-*` (puts a crash interrupted) at every start; a folder of that name
    # could not be removed, the start's preparation failed, and the writer thread retried it for ever
    # ahead of every other write (DISK ERROR, no game journaled). It is left alone now (nothing counts it).
    (tmp_path / "outbox" / ".tmp-000000c0ffee-000001.json").mkdir(parents=True)
    try:
        done = subprocess.run([sys.executable, "-c", WRITE_CHILD, "sequence", str(tmp_path)], capture_output=True,
                              text=True, timeout=TIMEOUT_S, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"a game's start did not end in {TIMEOUT_S} s (a hang)")
    assert done.returncode == 0 and done.stdout.split() == ["flushed"], done.stdout + done.stderr[-2000:]
    assert (tmp_path / "sequence").read_bytes() == b"1\n"
