"""Thai words for the clock's English texts (`text.tr`), keyed by the English exactly as the code
writes it. Terms follow the seeds (../shared/seeds/) where they name a thing."""
from __future__ import annotations

TH: dict[str, str] = {
}
