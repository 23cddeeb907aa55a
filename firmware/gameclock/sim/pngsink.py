"""`--display png`: frames as PNG files, for headless runs (no terminal needed).

In DIR: `frame-000001.png`, ... (both screens side by side, 4 px apart, pixel for pixel, 260x64,
mode "1"), `left.png` / `right.png` (the latest screens), and `frames.log`, one line per frame
(`000001 <left caption> | <right caption> | <info>`) and per beep (`BEEP flag left`).

Each run starts afresh: a `frames.log` and `frame-NNNNNN.png` files an earlier run left in DIR are
removed first (issue 27: the log was appended to, and an older longer run's frames stayed behind the new
ones), so DIR holds this run's frames only; files of other names are left alone.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PIL import Image

if TYPE_CHECKING:
    from gameclock.loop.sinks import Frame

GAP_PX = 4
FRAME_RE = re.compile(r"frame-\d{6,}\.png")


def side_by_side(left: Image.Image, right: Image.Image, gap: int = GAP_PX) -> Image.Image:
    img = Image.new("1", (left.width + gap + right.width, max(left.height, right.height)), 0)
    img.paste(left, (0, 0))
    img.paste(right, (left.width + gap, 0))
    return img


class PngSink:
    def __init__(self, directory: str | Path):
        self.dir = Path(directory)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.count = 0
        for old in self.dir.glob("frame-*.png"):
            if FRAME_RE.fullmatch(old.name):
                old.unlink()
        self._log = open(self.dir / "frames.log", "w", encoding="utf-8")

    def start(self) -> None:
        pass

    def stop(self) -> None:
        self._log.close()

    def show(self, frame: Frame) -> None:
        self.count += 1
        side_by_side(frame.left, frame.right).save(self.dir / f"frame-{self.count:06d}.png")
        frame.left.save(self.dir / "left.png")
        frame.right.save(self.dir / "right.png")
        self._write(f"{self.count:06d} {frame.captions[0]} | {frame.captions[1]} | {frame.info}"
                    + (f" | {frame.message}" if frame.message else ""))

    def beep(self, alert: Mapping[str, Any], text: str) -> None:
        self._write(text)

    def _write(self, line: str) -> None:
        if not self._log.closed:
            self._log.write(line + "\n")
            self._log.flush()
