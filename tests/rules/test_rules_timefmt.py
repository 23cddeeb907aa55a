"""parse_time / format_time: the rule files' time strings."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gameclock.rules.loader import parse_time
from gameclock.rules.timefmt import format_time

S = 10**9


@pytest.mark.parametrize(
    ("text", "ns"),
    [
        ("22:00", 22 * 60 * S),
        ("0:30", 30 * S),
        ("5:00", 300 * S),
        ("05:00", 300 * S),
        ("0:03", 3 * S),
        ("90:00", 90 * 60 * S),
        ("1:30:00", 90 * 60 * S),
        ("0:02.5", 2 * S + S // 2),
        ("0:00.000000001", 1),
        ("1:00:00.25", 3600 * S + S // 4),
        ("0:00", 0),
    ],
)
def test_parse_time_accepts(text: str, ns: int) -> None:
    assert parse_time(text) == ns


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("22:75", "seconds must be 00-59"),
        ("1:60:00", "minutes must be 00-59"),
        ("1:00:60", "seconds must be 00-59"),
        ("", "empty"),
        ("   ", "empty"),
        ("abc", "write M:SS or H:MM:SS"),
        ("-1:00", "negative"),
        ("-0:30", "negative"),
        ("22", "write M:SS or H:MM:SS"),
        ("1:5", "write M:SS or H:MM:SS"),
        ("1:2:03", "write M:SS or H:MM:SS"),
        ("1:00:00:00", "write M:SS or H:MM:SS"),
        ("0:30.", "write M:SS or H:MM:SS"),
        ("0:30.1234567891", "write M:SS or H:MM:SS"),
        ("１:００", "write M:SS or H:MM:SS"),  # full-width digits are not ASCII digits
    ],
)
def test_parse_time_rejects(text: str, why: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_time(text)
    message = str(info.value)
    assert why in message
    assert repr(text) in message
    assert "\n" not in message


def test_parse_time_rejects_non_strings() -> None:
    with pytest.raises(ValueError):
        parse_time(22)  # type: ignore[arg-type]


def test_format_time_examples() -> None:
    assert format_time(22 * 60 * S) == "22:00"
    assert format_time(3 * S) == "0:03"
    assert format_time(90 * 60 * S) == "1:30:00"
    assert format_time(2 * S + S // 2) == "0:02.5"


@given(st.integers(min_value=0, max_value=100 * 3600 * S))
def test_format_then_parse_is_identity(ns: int) -> None:
    assert parse_time(format_time(ns)) == ns
