"""No file in the repository keeps a merge's conflict markers (one once reached ARCHITECTURE.md)."""
from __future__ import annotations

import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MARKERS = ("<<<<<<< ", ">>>>>>> ")


def test_no_tracked_text_file_has_conflict_markers():
    files = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    bad = []
    names = [n for n in files.decode().split("\0") if n]
    assert len(names) > 100  # the listing worked
    for name in names:
        path = REPO / name
        if not path.is_file() or path.suffix in {".png", ".ttf", ".whl"}:
            continue
        for no, line in enumerate(path.read_bytes().splitlines(), start=1):
            if line.decode("utf-8", "replace").startswith(MARKERS):
                bad.append(f"{name}:{no}")
    assert bad == []
