"""Everything the clocks recorded, as JSON Lines: one stored result a line, the shape of
`Store.result()` -- {"id", "record" (the clock's record: every move's duration, overtime, counts,
material, the entry lines), "sig", "kid", "serial", "received_at", "source"} -- which is what
`gameclock import` reads (it checks each line's schema, id and signature), so another organiser PC
can merge the file. UTF-8, ordered by id; conflicts (docs/receiver-db.md) are not exported. A result
the organiser amended has its trail beside the signed record: "amendments" (oldest first: n, at, by,
reason, changes) and "amended" (the number of the amendment in effect, null when withdrawn);
`gameclock import` takes the signed record and leaves them.

With an event, only the results stored under that event (the `event` column, the record's own);
without one, all of them. Streamed row by row (`Store.export_jsonl`): no record is parsed or held.
"""
from __future__ import annotations

from typing import IO

from gameclock.organiser.store import Store


def export(store: Store, fileobj: IO[str], event: str | None = None) -> int:
    """Write the results (of `event` if given) to `fileobj`; returns how many lines."""
    return store.export_jsonl(fileobj, event)
