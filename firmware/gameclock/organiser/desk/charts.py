"""Charts drawn on the server as inline SVG (no script, no CDN): a game's move times, the time used
per round. Every number is checked to be an int and every text escaped: what reaches here came from
a clock or the organiser's files. The SVG uses presentation attributes only (the desk's CSP allows no
inline style).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

MAX_BARS = 600          # more moves than this: the chart shows the first MAX_BARS of each side
COLOURS = {"left": "#1f6fb2", "right": "#c2571a"}


def _ints(values: object) -> list[int]:
    if not isinstance(values, list):
        return []
    return [v for v in values if isinstance(v, int) and not isinstance(v, bool) and v >= 0][:MAX_BARS]


def seconds(ms: int) -> str:
    """`83.2 s` under ten minutes, else `M:SS`."""
    if ms < 600_000:
        return f"{ms / 1000:.1f} s"
    s = ms // 1000
    return f"{s // 60}:{s % 60:02d}"


def move_times(sides: Mapping[str, Any], names: Mapping[str, str], title: str = "Move times") -> str:
    """Each side's move durations (`sides[s]["move_ms"]`) as bars, the left player's above the axis,
    the right player's below, move by move; an empty string when neither side has moves."""
    series = {s: _ints((sides.get(s) or {}).get("move_ms")) for s in ("left", "right")}
    n = max(len(v) for v in series.values())
    if n == 0:
        return ""
    top = max(max(v, default=0) for v in series.values()) or 1
    width, half, pad, label = 720, 110, 8, 46
    bar = (width - label - pad) / n
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {2 * half + 2 * pad + 20}" '
           f'role="img" class="chart" data-testid="move-chart"><title>{escape(title)}</title>']
    axis = pad + half
    for side, sign in (("left", -1), ("right", 1)):
        for i, ms in enumerate(series[side]):
            h = max(1.0, ms / top * (half - 4))
            y = axis - h if sign < 0 else axis
            out.append(f'<rect x="{label + i * bar:.1f}" y="{y:.1f}" width="{max(1.0, bar * 0.8):.1f}" '
                       f'height="{h:.1f}" fill="{COLOURS[side]}"><title>{escape(names.get(side, side))} '
                       f'{i + 1}: {seconds(ms)}</title></rect>')
    out.append(f'<line x1="{label}" y1="{axis}" x2="{width - pad}" y2="{axis}" stroke="#333" stroke-width="1"/>')
    out.append(f'<text x="2" y="{pad + 12}" font-size="11" fill="#333">{escape(seconds(top))}</text>')
    out.append(f'<text x="2" y="{2 * half + pad}" font-size="11" fill="#333">{escape(seconds(top))}</text>')
    # the legend's keys are squares drawn in SVG: the shipped fonts have no geometric shapes (a "▲" was tofu)
    for side, x in (("left", label), ("right", width // 2)):
        y = 2 * half + 2 * pad + 16
        out.append(f'<rect x="{x}" y="{y - 10}" width="10" height="10" fill="{COLOURS[side]}"/>')
        out.append(f'<text x="{x + 14}" y="{y}" font-size="12" fill="{COLOURS[side]}">'
                   f'{escape(names.get(side, side))}</text>')
    out.append("</svg>")
    return "".join(out)


def round_times(rows: Sequence[Mapping[str, int]], title: str = "Time used per round") -> str:
    """Each round's mean time a game (both sides) as a bar and its longest game as a tick."""
    if not rows:
        return ""
    top = max(max(int(r["max_ms"]), 1) for r in rows)
    width, height, pad, foot = 720, 200, 10, 20
    step = (width - 2 * pad) / len(rows)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height + foot}" role="img" '
           f'class="chart" data-testid="round-chart"><title>{escape(title)}</title>']
    for i, r in enumerate(rows):
        x = pad + i * step
        h = int(r["mean_ms"]) / top * (height - 2 * pad)
        hmax = int(r["max_ms"]) / top * (height - 2 * pad)
        out.append(f'<rect x="{x + step * 0.15:.1f}" y="{height - pad - h:.1f}" width="{step * 0.7:.1f}" '
                   f'height="{max(h, 1):.1f}" fill="#1f6fb2"><title>{int(r["round"])}: '
                   f'{seconds(int(r["mean_ms"]))} ({int(r["games"])})</title></rect>')
        out.append(f'<line x1="{x + step * 0.1:.1f}" x2="{x + step * 0.9:.1f}" y1="{height - pad - hmax:.1f}" '
                   f'y2="{height - pad - hmax:.1f}" stroke="#c2571a" stroke-width="2"/>')
        out.append(f'<text x="{x + step / 2:.1f}" y="{height + foot - 4}" font-size="12" text-anchor="middle" '
                   f'fill="#333">{int(r["round"])}</text>')
    out.append("</svg>")
    return "".join(out)
