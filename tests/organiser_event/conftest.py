"""The event tests' fixtures: the test pairing system registered for one test only."""
from __future__ import annotations

import pytest
from evkit import FOLD, SEEN, fold, register, unregister


@pytest.fixture
def fold_system():
    register(FOLD, fold)
    SEEN.clear()
    yield FOLD
    unregister(FOLD)
    SEEN.clear()
