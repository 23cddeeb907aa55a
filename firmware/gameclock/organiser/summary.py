"""A result's summary: the few fields of its record that the standings and the exports (tsh, TRF,
CSV) read, so that they never parse the whole record (every move's duration, the entry lines ...).

    values = summary_of(record)       # [value at PATHS[0], value at PATHS[1], ...]; None where absent

The store keeps each result's summary next to its record (`results.summary`, docs/receiver-db.md):
the JSON array SQLite's `json_extract(record, PATH, PATH, ...)` makes of the record (`SQL`), written
in the same statement that stores the record, so `Store.summaries` hands the standings ~300 bytes a
result to parse instead of the record's ~2 kB and more. `summary_of` is the same thing done in
Python on a record dict (the tests' hand-made records; `games.game_from_record`): a value at a path
is None when a key on the way is missing, null, or not an object, as with `json_extract`.

Changing PATHS changes what every stored summary must hold: add a migration to store.MIGRATIONS
that recomputes them (`UPDATE results SET summary = <SQL>`), as migration 4 first computed them.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# Where each summary value is in the record (docs/result-record.md), in summary order (the order
# standings/games.py `game_from_summary` unpacks a summary in).
PATHS: tuple[str, ...] = (
    "id", "event", "round", "table", "preset.id", "kind", "level", "stage", "game", "tiebreak",
    "players.left", "players.right", "outcome", "reason", "draw_counts_as_loss_for", "first", "ended",
    "scores.game_points", "scores.final", "scores.spread", "scores.penalties", "scores.bonus",
    "material_value", "sides.left.time_used_ms", "sides.right.time_used_ms",
)

# The SQL expression of a summary of the column `record` (a JSON array text; NULL when the record
# is not valid JSON: a damaged row is then named by the reader instead of failing the migration).
SQL = ("CASE WHEN json_valid(record) THEN json_extract(record, "
       + ", ".join(f"'$.{p}'" for p in PATHS) + ") END")


def _at(record: Mapping[str, Any], path: str) -> Any:
    value: Any = record
    for key in path.split("."):
        if not isinstance(value, Mapping):
            return None
        value = value.get(key)
    return value


def summary_of(record: Mapping[str, Any]) -> list[Any]:
    """The record's summary (module doc): the value at each of PATHS, None where there is none."""
    return [_at(record, p) for p in PATHS]
