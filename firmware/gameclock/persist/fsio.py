"""The few file operations the journal, the outbox and the sequence counter use, in one object.

`FileSystem` is the real thing (thin wrappers over `os`). Tests pass a subclass that records the
order of the calls (a write must be fsync'd before the next step) or raises `OSError(ENOSPC)`,
`EROFS`, `EIO` on chosen calls: the writer's retry and the outbox's crash states are tested through
this layer, never by filling a real disk.

Every read of a state file goes through `read_bytes` with the file's limit (boundedfile.read: a
regular file only, opened without blocking and without following a symbolic link, its size checked
before anything is read): a FIFO, a device, a link to /dev/zero or a huge sparse file in the state
folder is `NotReadable` (an OSError: read as a damaged file is), never waited for, never read whole
(issue 24 B6).

`atomic_write` is the one recipe for a small file that must be either the old or the new one after a
crash or power cut: write a temporary file in the same folder, fsync it, rename it over the target,
fsync the folder (the rename is durable only once its directory is). Its temporary file is always a new
one (`new_temp`): whatever was left at that name is removed first, never opened (a FIFO there stalled the
writer thread for good, a link there was written through).
"""
from __future__ import annotations

import errno
import logging
import os

from gameclock import boundedfile

TMP_PREFIX = ".tmp-"
log = logging.getLogger(__name__)


class NotReadable(OSError):
    """A state file refused before reading: not a regular file (a FIFO, a device, a folder, a symbolic
    link) or larger than its limit. str(): one line naming the file, e.g. "STATE/sequence: not a
    regular file (a pipe (FIFO))"; `reason`: boundedfile's (not-a-file, too-large)."""

    def __init__(self, path: str, reason: str, detail: str):
        super().__init__(f"{path}: {detail}")
        self.path = path  # (not OSError's `filename`: str() would then be "[Errno None] ...")
        self.reason = reason


class FileSystem:
    """Real file operations (paths are str). Every method may raise OSError."""

    def open(self, path: str, flags: int, mode: int = 0o644) -> int:
        return os.open(path, flags | os.O_CLOEXEC, mode)

    def pwrite(self, fd: int, data: bytes, offset: int) -> int:
        return os.pwrite(fd, data, offset)

    def fsync(self, fd: int) -> None:
        os.fsync(fd)

    def fdatasync(self, fd: int) -> None:
        """The data only (a preallocated file's size and blocks do not change: no metadata to write)."""
        os.fdatasync(fd)

    def ftruncate(self, fd: int, size: int) -> None:
        os.ftruncate(fd, size)

    def close(self, fd: int) -> None:
        os.close(fd)

    def rename(self, src: str, dst: str) -> None:
        os.rename(src, dst)

    def unlink(self, path: str) -> None:
        os.unlink(path)

    def mkdir(self, path: str) -> None:
        os.makedirs(path, exist_ok=True)

    def listdir(self, path: str) -> list[str]:
        return os.listdir(path)

    def exists(self, path: str) -> bool:
        return os.path.exists(path)

    def read_bytes(self, path: str, max_bytes: int) -> bytes:
        """The bytes of the regular file `path`, at most `max_bytes` (its kind's limit). OSError as
        open() gives it (FileNotFoundError: none), NotReadable for a file that is not regular or too large."""
        try:
            return boundedfile.read(path, max_bytes=max_bytes, follow=False)
        except boundedfile.FileLimitError as exc:
            if exc.errno is not None:
                raise OSError(exc.errno, os.strerror(exc.errno), path) from None
            raise NotReadable(path, exc.reason, exc.detail) from None

    def link(self, src: str, dst: str) -> None:
        """A second name for `src` (not following a symbolic link: the link itself gets the name)."""
        os.link(src, dst, follow_symlinks=False)

    def fsync_dir(self, path: str) -> None:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def write_all(fs: FileSystem, fd: int, data: bytes, offset: int) -> None:
    """pwrite until all of `data` is at `offset` (a short write continues where it stopped)."""
    view = memoryview(data)
    while view:
        n = fs.pwrite(fd, bytes(view), offset)
        if n <= 0:  # pwrite never returns 0 for a non-empty buffer on a regular file; be safe
            raise OSError(errno.EIO, "short write")
        view, offset = view[n:], offset + n


def atomic_write(fs: FileSystem, path: str, data: bytes) -> None:
    """Replace `path` by `data` durably: temp file in the same folder, fsync, rename, fsync the folder.
    A crash at any step leaves the old file (or none) or the new one, never a mix; a leftover temp
    file (`.tmp-NAME`) is harmless and `clean_temp` removes it."""
    folder, name = os.path.split(path)
    tmp = os.path.join(folder, TMP_PREFIX + name)
    fd = new_temp(fs, tmp)
    try:
        write_all(fs, fd, data, 0)
        fs.fsync(fd)
    finally:
        fs.close(fd)
    fs.rename(tmp, path)
    fs.fsync_dir(folder or ".")


def new_temp(fs: FileSystem, tmp: str) -> int:
    """A new, empty regular file at `tmp`, open for writing. What a crash (or anyone) left there goes first:
    a file or a link is removed, a folder kept aside (keep_aside); then O_CREAT | O_EXCL, which never opens
    what it finds (a FIFO would wait for a reader for ever: the writer thread stalled, every later write
    queued behind it) nor follows a link (it would write into another file). A fresh-eyes review of issue 24."""
    if os.path.lexists(tmp):  # (only then: the fault-injection tests count every mutating call)
        if os.path.isdir(tmp) and not os.path.islink(tmp):
            keep_aside(fs, tmp)
        else:
            fs.unlink(tmp)
    return fs.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL)


def clean_temp(fs: FileSystem, folder: str) -> list[str]:
    """Remove the temp files a crash left in `folder` (they were never renamed, so never counted)."""
    removed: list[str] = []
    try:
        names = fs.listdir(folder)
    except FileNotFoundError:
        return removed
    for name in names:
        if name.startswith(TMP_PREFIX):
            try:
                fs.unlink(os.path.join(folder, name))
                removed.append(name)
            except FileNotFoundError:
                pass
            except IsADirectoryError:  # no crash left it: nothing counts it, and failing here failed the start
                log.warning("%s: a folder among the temp files, left alone", os.path.join(folder, name))
    return removed


def keep_aside(fs: FileSystem, path: str) -> str:
    """Rename the damaged `path` to `path.bad-N` (the first free N), so what was there can be looked at and
    a new file takes its place; the folder is fsync'd. Returns the new name; OSError if it cannot be."""
    for n in range(1, 1000):
        aside = f"{path}.bad-{n}"
        if not os.path.lexists(aside):  # (a dangling link there is something kept aside too)
            fs.rename(path, aside)
            fs.fsync_dir(os.path.dirname(path) or ".")
            return aside
    raise OSError(errno.EEXIST, "999 files kept aside already", path)


def disk_status(exc: OSError) -> str:
    """The text the screen shows for a failing disk."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return "DISK FULL"
    if exc.errno == errno.EROFS:
        return "DISK READ-ONLY"
    return "DISK ERROR"
