"""A FileSystem for tests: the real operations on a tmp folder, with every call recorded and faults
injected on chosen calls (an OSError to be retried, or `Crash`: the process dies right there)."""
from __future__ import annotations

import errno
import os
import threading

from gameclock.persist.fsio import FileSystem

MUTATING = ("open", "pwrite", "fsync", "fdatasync", "ftruncate", "rename", "unlink", "mkdir", "fsync_dir")


class Crash(BaseException):
    """The process is killed at this call (BaseException: no `except Exception` can swallow it)."""


def enospc(path: str = "") -> OSError:
    return OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), path or None)


def erofs(path: str = "") -> OSError:
    return OSError(errno.EROFS, os.strerror(errno.EROFS), path or None)


def eio(path: str = "") -> OSError:
    return OSError(errno.EIO, os.strerror(errno.EIO), path or None)


class FakeFS(FileSystem):
    """`calls`: (name, path or fd's path) in order. `fail[name] = exc` raises exc on every such call
    until removed; `crash_at = n` raises Crash at the n-th mutating call (0-based), before it runs;
    `gate` (a threading.Event) blocks every pwrite until set (a slow disk)."""

    def __init__(self):
        self.calls: list[tuple[str, str]] = []
        self.fail: dict[str, BaseException] = {}
        self.crash_at: int | None = None
        self.mutations = 0
        self.gate: threading.Event | None = None
        self._paths: dict[int, str] = {}
        self._lock = threading.Lock()

    def _hook(self, name: str, target) -> None:
        path = self._paths.get(target, str(target)) if isinstance(target, int) else str(target)
        with self._lock:
            if name in MUTATING:
                if self.crash_at is not None and self.mutations == self.crash_at:
                    raise Crash(f"{name} {path}")
                self.mutations += 1
            self.calls.append((name, path))
        exc = self.fail.get(name) or (self.fail.get("fsync") if name == "fdatasync" else None)
        if exc is not None:
            raise exc

    def names(self) -> list[str]:
        return [n for n, _ in self.calls]

    def open(self, path, flags, mode=0o644):
        self._hook("open", path)
        fd = super().open(path, flags, mode)
        self._paths[fd] = str(path)
        return fd

    def pwrite(self, fd, data, offset):
        if self.gate is not None:
            self.gate.wait(10)
        self._hook("pwrite", fd)
        return super().pwrite(fd, data, offset)

    def fsync(self, fd):
        self._hook("fsync", fd)
        super().fsync(fd)

    def fdatasync(self, fd):  # `fail["fsync"]` fails it too: the same durable step
        self._hook("fdatasync", fd)
        super().fdatasync(fd)

    def ftruncate(self, fd, size):
        self._hook("ftruncate", fd)
        super().ftruncate(fd, size)

    def close(self, fd):
        self._hook("close", fd)
        super().close(fd)
        self._paths.pop(fd, None)

    def rename(self, src, dst):
        self._hook("rename", f"{src} -> {dst}")
        super().rename(src, dst)

    def unlink(self, path):
        self._hook("unlink", path)
        super().unlink(path)

    def mkdir(self, path):
        self._hook("mkdir", path)
        super().mkdir(path)

    def fsync_dir(self, path):
        self._hook("fsync_dir", path)
        super().fsync_dir(path)
