"""Everything the clocks recorded, as JSON Lines: one stored result a line, the shape of
`Store.result()` -- {"id", "record" (the clock's record: every move's duration, overtime, counts,
material, the entry lines), "sig", "kid", "serial", "received_at", "source"} -- which is what
`gameclock import` reads (it checks each line's schema, id and signature), so another organiser PC
can merge the file. UTF-8, ordered by id; conflicts (docs/receiver-db.md) are not exported.

With an event, only the lines of `Store.export_jsonl` whose record is of that event are kept, as
written; without one, all of them.
"""
from __future__ import annotations

import io
import json
from typing import IO

from gameclock.organiser.store import Store


def export(store: Store, fileobj: IO[str], event: str | None = None) -> int:
    """Write the results (of `event` if given) to `fileobj`; returns how many lines."""
    if event is None:
        return store.export_jsonl(fileobj)
    every = io.StringIO()
    store.export_jsonl(every)
    n = 0
    for line in every.getvalue().splitlines(keepends=True):
        if json.loads(line)["record"].get("event") == event:  # the line is written as stored
            fileobj.write(line)
            n += 1
    return n
