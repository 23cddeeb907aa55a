"""Runs one protocol endpoint over one serial port (a file descriptor): the only dock code that does
I/O. Used by the device's dock thread, `gameclock upload`, `gameclock receive` and `enroll`.

    port = open_port("/dev/ttyGS0")         # pyserial: raw 8N1, exclusive; or FdPort(fd) for a pty
    link = Link(port, endpoint)              # endpoint: clockside.ClockEndpoint / pcside.ReceiverEndpoint
    link.run(stop)                           # until stop is set or the port goes away (PortGone)

Time is `time.monotonic_ns` throughout. Reads wait in `poll` until a byte arrives or the
endpoint's next wake, so an idle link costs nothing. Writes wait at most WRITE_TIMEOUT_S for a
peer that does not read (a USB gadget with no host); what could not be written is dropped, which
the peer sees as a bad CRC and the sender's retry repairs.
"""
from __future__ import annotations

import errno
import logging
import os
import select
import threading
import time
from collections.abc import Callable
from typing import IO, Protocol

from gameclock.words import note, words

from .frame import LineSplitter

log = logging.getLogger(__name__)

WRITE_TIMEOUT_S = 2.0
BAUD = 115200


class PortGone(OSError):
    """The port was closed, unplugged or hung up."""


class Port(Protocol):
    """What a link reads and writes: `FdPort`, or a test's stand-in."""

    def fileno(self) -> int: ...

    def read(self) -> bytes: ...

    def write(self, data: bytes) -> int: ...


class Endpoint(Protocol):
    """One end of the protocol (`clockside.ClockEndpoint`, `pcside.ReceiverEndpoint`): frames to send
    for each line received and at each poll. It may also have `connect(now)`, called once at the start."""

    def receive(self, now: int, line: bytes) -> list[bytes]: ...

    def poll(self, now: int) -> list[bytes]: ...

    def next_wake(self) -> int | None: ...

    def noise(self, reason: str, detail: str = "") -> None: ...


class _Closable(Protocol):
    def close(self) -> None: ...


class FdPort:
    """A port over an open file descriptor (non-blocking I/O)."""

    def __init__(self, fd: int, name: str = "", owner: _Closable | None = None):
        self.fd = fd
        self.name = name or f"fd {fd}"
        self._owner = owner  # keeps a pyserial object alive (it closes the fd when collected)
        os.set_blocking(fd, False)

    def fileno(self) -> int:
        return self.fd

    def read(self) -> bytes:
        try:
            data = os.read(self.fd, 65536)
        except BlockingIOError:
            return b""
        except OSError as exc:
            if exc.errno in (errno.EIO, errno.ENXIO, errno.ENODEV, errno.EBADF):
                raise PortGone(exc.errno, f"{self.name}: {exc.strerror}") from None
            raise
        if not data:
            raise PortGone(errno.EIO, f"{self.name}: closed")
        return data

    def write(self, data: bytes) -> int:
        """Write all of `data` unless the peer stops reading for WRITE_TIMEOUT_S; bytes written."""
        view, done = memoryview(data), 0
        deadline = time.monotonic() + WRITE_TIMEOUT_S
        while done < len(data):
            try:
                done += os.write(self.fd, view[done:])
                continue
            except BlockingIOError:
                pass
            except OSError as exc:
                if exc.errno in (errno.EIO, errno.ENXIO, errno.ENODEV, errno.EBADF):
                    raise PortGone(exc.errno, f"{self.name}: {exc.strerror}") from None
                raise
            left = deadline - time.monotonic()
            if left <= 0:
                log.warning("dock: %s is not reading: %d of %d bytes dropped", self.name,
                            len(data) - done, len(data))
                break
            _wait_for(self.fd, select.POLLOUT, min(left, 0.1))
        return done

    def close(self) -> None:
        if self._owner is not None:
            self._owner.close()
        else:
            try:
                os.close(self.fd)
            except OSError:
                pass


def _wait_for(fd: int, events: int, timeout_s: float) -> bool:
    """Wait at most `timeout_s` until `fd` is ready for `events` (or hung up: the read or write that
    follows says so). `poll`, not `select`: a receiver serving hundreds of ports has descriptors
    above select's 1024."""
    poller = select.poll()
    poller.register(fd, events)
    return bool(poller.poll(max(0.0, timeout_s) * 1000))


OPEN_PROBLEMS = {
    errno.ENOENT: words("no such port (the clock is unplugged, or another path)"),
    errno.EACCES: words("no permission to open it (add this user to the dialout group)"),
    errno.EBUSY: words("another program has it open (one program serves a port: stop gameclock receive)"),
    errno.EAGAIN: words("another program has it open (one program serves a port: stop gameclock receive)"),
}


def open_port(path: str, baud: int = BAUD) -> FdPort:
    """A serial device (or a pty's path) opened with pyserial: raw, 8N1, exclusive (a second
    program opening the same clock gets a clear error instead of half of its bytes)."""
    import serial  # pyserial; imported here so the clock's other code never needs it

    try:
        ser = serial.Serial(path, baudrate=baud, timeout=0, exclusive=True)
    except (serial.SerialException, OSError) as exc:
        # the usual causes said in plain words (a Note: the desk's clocks page says it in Thai), else the OS's own
        why = OPEN_PROBLEMS.get(getattr(exc, "errno", None) or 0)
        raise OSError(note("cannot open {path}: {why}", path=path, why=why if why is not None else str(exc))) from None
    return FdPort(ser.fileno(), path, owner=ser)


class Link:
    def __init__(self, port: Port, endpoint: Endpoint, clock: Callable[[], int] = time.monotonic_ns,
                 on_bytes: Callable[[int, int], None] | None = None):
        self.port = port
        self.endpoint = endpoint
        self.clock = clock
        self.splitter = LineSplitter()
        self.on_bytes = on_bytes  # (bytes in, bytes out) per step: the bench counts wire bytes
        self.bytes_in = 0
        self.bytes_out = 0

    def send(self, frames: list[bytes]) -> None:
        if frames:
            data = b"".join(frames)
            self.bytes_out += self.port.write(data)

    def start(self) -> None:
        connect = getattr(self.endpoint, "connect", None)
        if connect is not None:
            self.send(connect(self.clock()))

    def step(self, max_wait_s: float = 1.0) -> None:
        """Wait for input or the endpoint's next wake (at most `max_wait_s`), then serve both."""
        now = self.clock()
        wake = self.endpoint.next_wake()
        wait = max_wait_s if wake is None else min(max_wait_s, max(0.0, (wake - now) / 1e9))
        if _wait_for(self.port.fileno(), select.POLLIN, wait):
            data = self.port.read()
            self.bytes_in += len(data)
            lines, dropped = self.splitter.feed(data)
            for _ in range(dropped):
                self.endpoint.noise("too-long", f"a line over {self.splitter.max_line} bytes")
            for line in lines:
                self.send(self.endpoint.receive(self.clock(), line))
        self.send(self.endpoint.poll(self.clock()))

    def run(self, stop: threading.Event | None = None, max_wait_s: float = 0.5) -> None:
        """Serve until `stop` is set; PortGone propagates (the caller decides to reopen or end)."""
        self.start()
        while stop is None or not stop.is_set():
            self.step(max_wait_s)


class LineReader:
    """Lines a person types (stdin), read without blocking a link: `line()` is None until one is
    complete. Used where someone answers an enrollment code (`gameclock enroll`, `upload --enroll`)."""

    def __init__(self, stream: IO[str]):
        self.fd = stream.fileno()
        self.buf = b""
        self.closed = False

    def line(self) -> str | None:
        while not self.closed and b"\n" not in self.buf and select.select([self.fd], [], [], 0)[0]:
            data = os.read(self.fd, 256)
            if not data:
                self.closed = True
            self.buf += data
        if b"\n" in self.buf or (self.closed and self.buf):
            line, _, self.buf = self.buf.partition(b"\n")
            return line.decode("utf-8", "replace")
        return None
