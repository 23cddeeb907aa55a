"""Thai words for the clock's English texts (`text.tr`), keyed by the English exactly as the code
writes it. Terms follow the seeds (../shared/seeds/) where they name a thing."""
from __future__ import annotations

TH: dict[str, str] = {
    # --- the preset menu's groups (issue 15, ui/menu.py PRESET_GROUPS; seed 000's names of the games)
    "Crossword family": "ครอสเวิร์ด เอแม็ท คำคม",
    "CROSSWORD FAMILY": "ครอสเวิร์ด เอแม็ท คำคม",
    "Makruk": "หมากรุก",
    "MAKRUK": "หมากรุก",
    "Makhos": "หมากฮอส",
    "MAKHOS": "หมากฮอส",
    "Sudoku": "ซูโดกุ",
    "SUDOKU": "ซูโดกุ",
    "Other modes": "แบบอื่น ๆ",
    "OTHER MODES": "แบบอื่น ๆ",
    # --- counts from the game menu (issue 15; seeds 001 §7(11-12), 003 §7-10: นับศักดิ์หมาก)
    "Pieces count: left": "นับศักดิ์หมาก: ซ้าย",
    "Pieces count: right": "นับศักดิ์หมาก: ขวา",
    "PIECES LEFT": "ศักดิ์หมาก ซ้าย",
    "PIECES RIGHT": "ศักดิ์หมาก ขวา",
    "Enter the pieces": "ใส่หมากฝ่ายไล่",
    "Over the limit": "เกินจำนวนนับ",
    "From {first} to {limit}": "เริ่มนับ {first} ถึง {limit}",
}
