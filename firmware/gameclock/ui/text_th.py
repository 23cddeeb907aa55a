"""Thai words for the clock's English texts (`text.tr`), keyed by the English exactly as the code
writes it. Terms follow the seeds (../shared/seeds/) where they name a thing."""
from __future__ import annotations

TH: dict[str, str] = {
    # a pairing's set-up (issue 15; loop/pairings.py's message line)
    "pairing": "การจับคู่",
    "pairing refused": "ไม่รับการจับคู่",
    "next": "ถัดไป",
    "set-up": "การตั้งค่าการแข่งขัน",
    "is not on this clock": "ไม่มีในนาฬิกาเครื่องนี้",
}
