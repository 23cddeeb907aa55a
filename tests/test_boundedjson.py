"""boundedjson: the limits every entry point reads JSON through (issue 13: a record nested 987 deep)."""
import pytest

from gameclock import boundedjson
from gameclock.boundedjson import JSONLimitError


def test_a_plain_object_reads():
    assert boundedjson.loads(b'{"a": [1, 2.5, "\xe0\xb8\x81"]}', max_bytes=100) == {"a": [1, 2.5, "ก"]}


@pytest.mark.parametrize("n", [33, 987, 100_000])
def test_deep_nesting_is_refused_by_name(n):
    with pytest.raises(JSONLimitError) as exc:
        boundedjson.loads("[" * n + "]" * n, max_bytes=10**6)
    assert exc.value.reason == "too-deep"


def test_depth_32_is_the_limit():
    assert boundedjson.loads("[" * 32 + "]" * 32, max_bytes=100) is not None
    assert boundedjson.depth({"a": [{"b": 1}]}) == 3
    assert boundedjson.depth(5) == 0


@pytest.mark.parametrize("text,reason", [
    ("[NaN]", "bad-json"), ("[1e400]", "bad-json"), ("1" * 31, "bad-json"), ("{", "bad-json"),
])
def test_strict_numbers(text, reason):
    with pytest.raises(JSONLimitError) as exc:
        boundedjson.loads(text, max_bytes=100)
    assert exc.value.reason == reason


def test_size_and_utf8():
    with pytest.raises(JSONLimitError) as exc:
        boundedjson.loads(b"[" + b"1," * 100 + b"1]", max_bytes=100)
    assert exc.value.reason == "too-large"
    with pytest.raises(JSONLimitError) as exc:
        boundedjson.loads(b'"\xe0\xb8"', max_bytes=100)
    assert exc.value.reason == "bad-utf8"
