"""Files from outside, read with limits: a regular file only (not /dev/zero, a FIFO or a terminal, whose
read would never end or never start), and at most `max_bytes` of it (issue 13: `check-rules /dev/zero`
hung). The data files (rules, wiring), pairing files and the import's lines read through here, and the
clock's own state files (persist/fsio.py `FileSystem.read_bytes`, the dock key, the identity's files:
issue 24 B6, a FIFO or a link to /dev/zero there stalled the clock's start).

    data = boundedfile.read(path, max_bytes=1024 * 1024)    # FileLimitError (an OSError's message) if not
    with boundedfile.open_regular(path) as f: ...            # the same checks, for a reader that streams
    boundedfile.read(path, max_bytes=64, follow=False)      # a symbolic link refused too (a state file:
                                                             # the clock writes it itself, never as a link)

The error's str() is one line without the file's name (the caller's message names it), e.g.
"not a regular file (a character device)", "too large (3 MiB; at most 1 MiB)".
"""
from __future__ import annotations

import errno
import os
import stat
from typing import BinaryIO


class FileLimitError(ValueError):
    """A file refused. `reason`: cannot-read, not-a-file, too-large; str(): the one-line detail;
    `errno`: the OSError's errno of a cannot-read (ENOENT: there is no such file), else None."""

    def __init__(self, reason: str, detail: str, os_errno: int | None = None):
        super().__init__(detail)
        self.reason = reason
        self.detail = detail
        self.errno = os_errno


_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISFIFO, "a pipe (FIFO)"), (stat.S_ISSOCK, "a socket"))


def size_text(n: int) -> str:
    """A byte count for people: 512 bytes, 40 KiB, 3 MiB (rounded up, so a limit is never shown too low)."""
    if n < 1024:
        return f"{n} bytes"
    if n < 1024 * 1024:
        return f"{-(-n // 1024)} KiB"
    return f"{-(-n // (1024 * 1024))} MiB"


def open_regular(path: str | os.PathLike[str], *, follow: bool = True) -> BinaryIO:
    """The file opened for reading in binary, if it is a regular file. Opened without blocking (a FIFO
    with no writer would otherwise wait for ever) and checked on the open descriptor (no race with a
    rename). `follow=False`: a symbolic link is refused as well, not followed (O_NOFOLLOW).
    FileLimitError otherwise."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | (0 if follow else os.O_NOFOLLOW)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if not follow and exc.errno == errno.ELOOP:  # O_NOFOLLOW's answer for a link as the last name
            raise FileLimitError("not-a-file", "not a regular file (a symbolic link)") from None
        raise FileLimitError("cannot-read", f"cannot read ({exc.strerror or exc})", exc.errno) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
            raise FileLimitError("not-a-file", f"not a regular file ({kind})")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read(path: str | os.PathLike[str], *, max_bytes: int, follow: bool = True) -> bytes:
    """The bytes of the regular file `path`, at most `max_bytes` of them (never more is read: a file
    that grows while it is read cannot get past the limit; a huge sparse file is refused by its size
    before any of it is read). `follow`: as for open_regular. FileLimitError otherwise."""
    with open_regular(path, follow=follow) as f:
        try:
            size = os.fstat(f.fileno()).st_size
            data = f.read(max_bytes + 1) if size <= max_bytes else b""
        except OSError as exc:
            raise FileLimitError("cannot-read", f"cannot read ({exc.strerror or exc})", exc.errno) from None
    if size > max_bytes or len(data) > max_bytes:
        shown = size_text(max(size, len(data)))
        raise FileLimitError("too-large", f"too large ({shown}; at most {size_text(max_bytes)})")
    return data
