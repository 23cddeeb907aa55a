"""gameclock: a game clock and scorer for Thai board-game tournaments."""

__version__ = "0.2.0"
