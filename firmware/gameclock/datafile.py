"""One strict reader for the data files (rules/*.toml, hw/wiring.toml), after Klipper's configfile.ConfigWrapper.

`load(path, error=..., parse_time=...)` reads a TOML file into a `Section`: one table, its dotted prefix
and its file. The typed getters (`get_str`, `get_int`, `get_bool`, `get_choice`, `get_time`, `get_times`,
`get_list`, `section`, `sections`) each take a key of that table and a default; without a default
(`REQUIRED`) the key must be there. They check the type and the range and note the key as asked for.
`check_keys` refuses the keys outside an allowed list, `check_unused` those no getter asked for, both
with a did-you-mean. Every problem is one exception of the `DataError` family (the subclass `load` is
given) whose str() is one line naming the file and the dotted key:

    rules/x.toml: clock.time: bad time '22:75' (seconds must be 00-59; write M:SS or H:MM:SS)

Times are integer nanoseconds: the file writes them as strings ("M:SS"), parsed by the `parse_time`
the caller hands to `load` (so this module knows no file's format). Only the standard library is used
(`tomllib`): this runs on the Pi.
"""
from __future__ import annotations

import os
import tomllib
from collections.abc import Callable, Iterable, Iterator
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, TypeVar

from gameclock import boundedfile, boundedjson
from gameclock.dataerrors import DataError, did_you_mean, shown, unknown_value, unsafe_char

__all__ = ["REQUIRED", "DataError", "Section", "load"]

D = TypeVar("D")


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()  # the default of a key that must be in the file

EMPTY_KEY = "must not be empty (leave the key out instead)"
MAX_FILE_BYTES = 256 * 1024  # a rule file is 1-3 kB, the wiring file 5 kB: anything this big is not one
MAX_DEPTH = 8                # tables and arrays inside each other: a rule file needs 4 (clock.stages[0].time)
INT_RANGE = (-(2**31), 2**31 - 1)  # every integer of a data file, whatever its key's own range


def load(source: str | os.PathLike[str] | Traversable, *, error: type[DataError] = DataError,
         parse_time: Callable[[str], int] | None = None,
         format_time: Callable[[int], str] | None = None) -> Section:
    """The top-level table of the TOML file `source` (a path, or package data read with
    importlib.resources; its prefix is ""). Raises `error` (one line, no key) when the file cannot be
    read, is not UTF-8 or is not TOML. `parse_time`: "M:SS" text -> ns, raising ValueError with a
    one-line message; needed by get_time and get_times only; `format_time` (ns -> "M:SS") shows a
    time's allowed range.

    Refused with `error` too: what is not a regular file (/dev/zero, a FIFO) or is larger than
    MAX_FILE_BYTES (never more is read), TOML nested deeper than MAX_DEPTH (tomllib's own recursion
    included), values tomllib cannot hold (an integer of 5,000 digits)."""
    readable: Path | Traversable = source if isinstance(source, Traversable) else Path(source)
    path = readable if isinstance(readable, Path) else Path(str(readable))
    try:
        if isinstance(readable, Path):
            raw = boundedfile.read(readable, max_bytes=MAX_FILE_BYTES)
        else:  # package data inside an archive: ours, but held to the same limit
            raw = readable.read_bytes()
            if len(raw) > MAX_FILE_BYTES:
                raise boundedfile.FileLimitError("too-large", f"too large (at most {MAX_FILE_BYTES} bytes)")
    except boundedfile.FileLimitError as exc:
        raise error(path, None, str(exc)) from None
    except OSError as exc:
        raise error(path, None, f"cannot read ({exc.strerror or exc})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(path, None, f"not UTF-8 text (byte {exc.start})") from None
    try:
        data = tomllib.loads(text)
    except RecursionError:  # tomllib recurses once per nested array or inline table
        raise error(path, None, f"nested too deep (arrays or tables inside each other; at most {MAX_DEPTH})") from None
    except tomllib.TOMLDecodeError as exc:
        raise error(path, None, f"TOML syntax error: {exc}") from None
    except ValueError as exc:  # Python's own limit: an integer of more than 4,300 digits
        detail = "an integer of thousands of digits" if "digits" in str(exc) else str(exc)
        raise error(path, None, f"TOML value refused: {detail}") from None
    try:
        boundedjson.check_depth(data, MAX_DEPTH)
    except boundedjson.JSONLimitError as exc:
        raise error(path, None, f"nested too deep ({exc.detail})") from None
    return Section(data, file=path, error=error, parse_time=parse_time, format_time=format_time)


class Section:
    """One table of a data file. `prefix` is its dotted key ("" for the file's top level, "display.i2c",
    "clock.stages[0]"); messages name a key of it as prefix.key. `asked` holds the keys getters asked for."""

    def __init__(self, table: dict[str, Any], *, file: str | os.PathLike[str], prefix: str = "",
                 error: type[DataError] = DataError, parse_time: Callable[[str], int] | None = None,
                 format_time: Callable[[int], str] | None = None):
        self.table = table
        self.file = Path(file)
        self.prefix = prefix
        self.asked: set[str] = set()
        self._error = error
        self._parse_time = parse_time
        self._format_time = format_time
        self._children: list[Section] = []

    # ---- keys and errors ----

    def key(self, name: str | None) -> str | None:
        """The dotted key of `name` ("low_time[1]" works too); None: this table itself (None at the top)."""
        if name is None:
            return self.prefix or None
        return f"{self.prefix}.{name}" if self.prefix else name

    def error(self, name: str | None, problem: str) -> DataError:
        """The exception (to raise) for `name` of this table; None: the table itself."""
        return self._error(self.file, self.key(name), problem)

    def __contains__(self, name: object) -> bool:
        return name in self.table

    def __iter__(self) -> Iterator[str]:
        """The keys in file order."""
        return iter(self.table)

    def raw(self, name: str) -> Any:
        """The parsed value of `name`, unchecked (KeyError if absent)."""
        self.asked.add(name)
        return self.table[name]

    def _lookup(self, name: str, default: Any, missing: str) -> tuple[bool, Any]:
        """(True, the value) or (False, default), noting the key as asked for; absent and REQUIRED: the
        error `missing` ("missing (required)")."""
        self.asked.add(name)
        if name in self.table:
            return True, self.table[name]
        if default is REQUIRED:
            raise self.error(name, missing)
        return False, default

    # ---- unknown keys ----

    def check_keys(self, allowed: Iterable[str], *, not_used: Iterable[str] = (), why: str = "",
                   note: str | None = None) -> None:
        """Refuse the first key (in file order) outside `allowed`: one of `not_used` is "not used {why}"
        (a key of another mode), any other "unknown key" with a did-you-mean. With `note` (the top level)
        it is "unknown table ({note})" or "unknown key ({note})", by what the value is."""
        allowed, not_used = tuple(allowed), frozenset(not_used)
        for k, value in self.table.items():
            if k in allowed:
                continue
            if k in not_used:
                raise self.error(k, f"not used {why}")
            if note is None:
                raise self.error(k, "unknown key" + did_you_mean(k, allowed))
            what = "table" if isinstance(value, dict) else "key"
            raise self.error(k, f"unknown {what} ({note})" + did_you_mean(k, allowed))

    def refuse(self, names: Iterable[str], why: str) -> None:
        """The first of `names` (in that order) that is present is "not used {why}"."""
        for k in names:
            if k in self.table:
                raise self.error(k, f"not used {why}")

    def check_unused(self) -> None:
        """Klipper's check: refuse a key no getter asked for, here and in every table taken from here."""
        for k in self.table:
            if k not in self.asked:
                raise self.error(k, "unknown key" + did_you_mean(k, sorted(self.asked)))
        for child in self._children:
            child.check_unused()

    # ---- scalars ----

    def get_str(self, name: str, default: D | _Required = REQUIRED, *, missing: str = "required") -> str | D:
        """A string that is not blank. `missing`: said in "missing (...)" when a required key is absent."""
        found, value = self._lookup(name, default, f"missing ({missing})")
        return self.as_str(value, name) if found else value

    def as_str(self, value: Any, name: str) -> str:
        if not isinstance(value, str):
            raise self.error(name, f"expected a string, got {shown(value)}")
        if not value.strip():
            raise self.error(name, "must not be empty")
        self.check_text(value, name)
        return value

    def check_text(self, value: str, name: str) -> None:
        """Refuse text holding a control character, a line break or a bidi override (names, ids and every
        displayed text: the screens, the logs and a terminal would show something else than the file)."""
        bad = unsafe_char(value)
        if bad is not None:
            raise self.error(name, f"holds {bad[1]} at character {bad[0] + 1}: remove it (names and "
                                   "displayed text cannot hold control characters)")

    def get_int(self, name: str, default: D | _Required = REQUIRED, *, minimum: int | None = None,
                maximum: int | None = None, between: tuple[int, int] | None = None, hexadecimal: bool = False,
                missing: str = "required") -> int | D:
        """An integer (not a boolean). `minimum`, `maximum`: bounds told one at a time ("must be at least 1,
        got 0"); `between`: a range told whole ("must be 1-200, got 0"); `hexadecimal`: shown as 0x3C."""
        found, value = self._lookup(name, default, f"missing ({missing})")
        return self.as_int(value, name, minimum=minimum, maximum=maximum, between=between,
                           hexadecimal=hexadecimal) if found else value

    def as_int(self, value: Any, name: str, *, minimum: int | None = None, maximum: int | None = None,
               between: tuple[int, int] | None = None, hexadecimal: bool = False) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(name, f"expected an integer, got {shown(value)}")
        show: Callable[[int], str] = (lambda v: f"0x{v:02X}") if hexadecimal else str
        if between is None and not INT_RANGE[0] <= value <= INT_RANGE[1]:
            lo, hi = INT_RANGE if minimum is None else (minimum, INT_RANGE[1])
            shown_value = show(value) if len(str(value)) <= 20 else f"{str(value)[:12]}... ({len(str(value))} digits)"
            raise self.error(name, f"must be {show(lo)}-{show(hi)}, got {shown_value}")
        if between is not None and not between[0] <= value <= between[1]:
            raise self.error(name, f"must be {show(between[0])}-{show(between[1])}, got {show(value)}")
        if minimum is not None and value < minimum:
            raise self.error(name, f"must be at least {show(minimum)}, got {show(value)}")
        if maximum is not None and value > maximum:
            raise self.error(name, f"must be at most {show(maximum)}, got {show(value)}")
        return value

    def get_bool(self, name: str, default: D | _Required = REQUIRED, *, missing: str = "required") -> bool | D:
        """true or false."""
        found, value = self._lookup(name, default, f"missing ({missing})")
        if found and not isinstance(value, bool):
            raise self.error(name, f"expected true or false, got {shown(value)}")
        return value

    def get_choice(self, name: str, choices: Iterable[str], default: D | _Required = REQUIRED, *,
                   noun: str | None = "value", missing: str | None = None) -> str | D:
        """One of the strings `choices`. With a `noun` ("mode"), a string first (get_str), then
        "unknown mode 'x' (one of a, b)"; with noun=None any other value is "expected one of a, b, got ...".
        Both add a did-you-mean. `missing` defaults to "required: one of a, b"."""
        choices = tuple(choices)
        missing = missing or f"required: one of {', '.join(choices)}"
        found, value = self._lookup(name, default, f"missing ({missing})")
        return self.as_choice(value, name, choices, noun=noun) if found else value

    def as_choice(self, value: Any, name: str, choices: tuple[str, ...], *, noun: str | None = "value") -> str:
        if noun is not None:
            value = self.as_str(value, name)
            if value not in choices:
                raise self.error(name, unknown_value(noun, value, choices))
            return value
        if not isinstance(value, str) or value not in choices:
            hint = did_you_mean(value, choices) if isinstance(value, str) else ""
            raise self.error(name, f"expected one of {', '.join(choices)}, got {shown(value)}" + hint)
        return value

    # ---- times (ns) ----

    def get_time(self, name: str, default: D | _Required = REQUIRED, *, allow_zero: bool = False,
                 maximum: int | None = None, missing: str = "required") -> int | D:
        """A time string ("22:00") parsed by load's parse_time, in nanoseconds; more than 0 unless allow_zero;
        at most `maximum` ns (told as a time, with the allowed range, by load's format_time)."""
        found, value = self._lookup(name, default, f"missing ({missing})")
        return self.as_time(value, name, allow_zero=allow_zero, maximum=maximum) if found else value

    def as_time(self, value: Any, name: str, *, allow_zero: bool = False, maximum: int | None = None) -> int:
        if self._parse_time is None:
            raise TypeError(f"{self.file}: no time parser was given to datafile.load")
        if not isinstance(value, str):
            raise self.error(name, f'expected a time string like "22:00", got {shown(value)}')
        try:
            ns = self._parse_time(value)
        except ValueError as exc:
            raise self.error(name, str(exc)) from None
        if ns == 0 and not allow_zero:
            raise self.error(name, f"must be more than 0:00, got {value!r}")
        if maximum is not None and ns > maximum:
            low = "0:00" if allow_zero else "more than 0:00"
            high = self._format_time(maximum) if self._format_time else f"{maximum} ns"
            shown_value = value if len(value) <= 20 else f"{value[:12]}... ({len(value)} characters)"
            raise self.error(name, f"{shown_value!r} is too long: must be {low} up to {high}")
        return ns

    def get_times(self, name: str, default: D | _Required = REQUIRED, *, below: int | None = None,
                  below_what: str = "", descending: bool = True, maximum: int | None = None) -> tuple[int, ...] | D:
        """A non-empty array of times (ns), each more than 0 and, with `below`, less than it ("'x' must be
        less than {below_what}"). descending=True: a set of thresholds, no repeats, sorted longest first."""
        found, value = self._lookup(name, default, "missing (required)")
        if not found:
            return value
        value = self.get_list(name, expected='an array of times like ["1:00"]')
        out = [self.as_time(v, f"{name}[{i}]", maximum=maximum) for i, v in enumerate(value)]
        if below is not None:
            for i, ns in enumerate(out):
                if ns >= below:
                    raise self.error(f"{name}[{i}]", f"{value[i]!r} must be less than {below_what}")
        if descending:
            seen: set[int] = set()
            for i, ns in enumerate(out):
                if ns in seen:
                    raise self.error(f"{name}[{i}]", f"{value[i]!r} is listed twice")
                seen.add(ns)
            out.sort(reverse=True)
        return tuple(out)

    # ---- arrays and tables ----

    def get_list(self, name: str, default: D | _Required = REQUIRED, *, expected: str = "an array",
                 empty: str | None = EMPTY_KEY, missing: str = "required") -> list[Any] | D:
        """An array, items unchecked (check them with the as_* methods, naming them "key[i]").
        "expected {expected}, got ..." for another value; `empty`: the problem of [] (None: [] is fine)."""
        found, value = self._lookup(name, default, f"missing ({missing})")
        if not found:
            return value
        if not isinstance(value, list):
            raise self.error(name, f"expected {expected}, got {shown(value)}")
        if not value and empty is not None:
            raise self.error(name, empty)
        return value

    def section(self, name: str, default: D | _Required = REQUIRED, *, allowed: Iterable[str] | None = None,
                like: str | None = None, nonempty: bool = False) -> Section | D:
        """The table `name` as a Section (`default`, e.g. None, when absent). `allowed`: check_keys at once;
        `like`: an example for "expected a table [x] like ..."; nonempty: refuse an empty table."""
        dotted = str(self.key(name))
        found, value = self._lookup(name, default, f"missing table (add a [{dotted}] section)")
        if not found:
            return value
        if not isinstance(value, dict):
            example = f" like {like}" if like else ""
            raise self.error(name, f"expected a table [{dotted}]{example}, got {shown(value)}")
        if nonempty and not value:
            raise self.error(name, "must not be empty (leave the table out instead)")
        child = self._child(value, dotted)
        if allowed is not None:
            child.check_keys(allowed)
        return child

    def sections(self, name: str, default: D | _Required = REQUIRED, *, like: str) -> list[Section] | D:
        """A non-empty array of tables, each a Section named "key[i]"; `like`: an example for the message."""
        found, value = self._lookup(name, default, "missing (required)")
        if not found:
            return value
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise self.error(name, f"expected an array of tables like {like}, got {shown(value)}")
        if not value:
            raise self.error(name, EMPTY_KEY)
        return [self._child(v, str(self.key(f"{name}[{i}]"))) for i, v in enumerate(value)]

    def _child(self, table: dict[str, Any], prefix: str) -> Section:
        child = Section(table, file=self.file, prefix=prefix, error=self._error, parse_time=self._parse_time,
                        format_time=self._format_time)
        self._children.append(child)
        return child
