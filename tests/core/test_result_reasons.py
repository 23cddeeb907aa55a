"""The reasons result entry accepts are the rules' own (MR-3 draws, MH-5 losses, MH-6 draws)."""
from __future__ import annotations

import pytest

from gameclock.core.result import Entry, EntryError, apply_entry, result_view
from gameclock.core.scoring import Scoring

MAKRUK = Scoring(kind="makruk")
MAKHOS = Scoring(kind="makhos")


@pytest.mark.parametrize("reason", ["stalemate", "agreement", "repetition", "material"])
def test_makruk_draw_reasons(reason):
    # MR-3: stalemate, agreement, the same position three times, insufficient material
    e = apply_entry(Entry(), ["outcome", "draw", reason], True, MAKRUK)
    e = apply_entry(e, ["material", "left", "-"], True, MAKRUK)
    e = apply_entry(e, ["material", "right", "S"], True, MAKRUK)
    r = result_view(e, {}, MAKRUK)
    assert (r["winner"], r["reason"], r["game_points"]) == ("draw", reason, {"left": 1, "right": 1})


@pytest.mark.parametrize("reason", ["no-pieces", "no-move", "resignation", "penalty", "late"])
def test_makhos_loss_reasons(reason):
    # MH-5: no pieces left, no legal move, resignation, a penalty, arriving late
    r = result_view(apply_entry(Entry(), ["outcome", "left", reason], True, MAKHOS), {}, MAKHOS)
    assert (r["winner"], r["reason"], r["game_points"]) == ("left", reason, {"left": 2, "right": 0})


def test_makhos_count_draw_and_unknown_reason():
    # MH-6: a draw by the 16-move count
    r = result_view(apply_entry(Entry(), ["outcome", "draw", "count"], True, MAKHOS), {}, MAKHOS)
    assert r["winner"] == "draw"
    with pytest.raises(EntryError, match="bad reason 'mate' for makhos"):
        apply_entry(Entry(), ["outcome", "left", "mate"], True, MAKHOS)
