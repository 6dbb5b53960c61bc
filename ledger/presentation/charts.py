"""Charts drawn on the server as inline SVG, so the browser needs no chart library.

``running_chart`` draws one line per player (or side) through the running totals the core
returned for each hand, with the target as a dashed line and a dot at each line's end. The
SVG scales to its container (viewBox + width 100%); a legend under the plot, two to a row,
gives each line's colour, its name and its last total.
"""

from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import pgettext

PALETTE = ("#1f7a4d", "#c0392b", "#2c5aa0", "#b7791f", "#7d3c98", "#0e7c86", "#6b6b6b")

WIDTH, HEIGHT = 340, 190
LEFT, RIGHT, TOP, BOTTOM = 34, 14, 12, 24
LEGEND_ROW = 16


def _scale(value: int) -> tuple[int, int]:
    """(top, step) of the y axis: a round step with at most 5 steps up to ``value``."""
    for step in (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000,
                 20000, 25000, 50000, 100000):
        if value <= step * 5:
            return max(step, -(-value // step) * step), step
    return value, max(value // 5, 1)


def _axis_start(unit: str) -> str:
    """The axis's first mark: "hand 0", CAP-IT's "round 0"."""
    if unit == "round":
        return pgettext("chart", "round %(n)s") % {"n": 0}
    return pgettext("chart", "hand %(n)s") % {"n": 0}


def _target_words(target) -> str:
    """The target line's mark: "game 100"."""
    return pgettext("chart", "game %(target)s") % {"target": target}


def running_chart(keys: list[str], running: list[dict], *, target: int | None = None,
                  title: str = "Running totals", unit: str = "hand",
                  labels: list[str] | None = None) -> SafeString:
    """SVG of ``running`` (one dict of running totals per hand, keyed like ``keys``); the
    axis starts at "hand 0" (``unit``: CAP-IT's "round 0"); ``labels``: the keys as the
    legend names them (default: the keys)."""
    labels = labels or keys
    hands = len(running)
    values = [row.get(key, 0) for row in running for key in keys]
    top, step = _scale(max([*values, target or 0, 10]))
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    legend_rows = -(-len(keys) // 2)
    height = HEIGHT + legend_rows * LEGEND_ROW + 4

    def x(i: int) -> float:
        return LEFT + (plot_w * i / max(hands, 1))

    def y(v: float) -> float:
        return TOP + plot_h - (plot_h * v / top)

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" width="100%" role="img" '
        f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
    ]
    for v in range(0, top + 1, step):
        parts.append(f'<line class="grid" x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y(v):.1f}" '
                     f'y2="{y(v):.1f}"/>')
        parts.append(f'<text class="tick" x="{LEFT - 4}" y="{y(v) + 3:.1f}" '
                     f'text-anchor="end">{int(v)}</text>')
    if target:
        parts.append(f'<line class="target" x1="{LEFT}" x2="{LEFT + plot_w}" '
                     f'y1="{y(target):.1f}" y2="{y(target):.1f}"/>')
        parts.append(f'<text class="tick target-label" x="{LEFT + 2}" y="{y(target) - 3:.1f}">'
                     f"{escape(_target_words(target))}</text>")
    parts.append(f'<text class="tick" x="{LEFT}" y="{HEIGHT - 6}">'
                 f"{escape(_axis_start(unit))}</text>")
    parts.append(f'<text class="tick" x="{LEFT + plot_w}" y="{HEIGHT - 6}" '
                 f'text-anchor="end">{hands}</text>')
    for index, key in enumerate(keys):
        colour = PALETTE[index % len(PALETTE)]
        points = [(x(0), y(0))] + [(x(i), y(row.get(key, 0)))
                                   for i, row in enumerate(running, start=1)]
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2.5" '
                     f'stroke-linejoin="round" points="{path}"/>')
        end_x, end_y = points[-1]
        parts.append(f'<circle cx="{end_x:.1f}" cy="{end_y:.1f}" r="3" fill="{colour}"/>')
        # legend: two per row under the plot
        lx = LEFT + (index % 2) * (plot_w / 2)
        ly = HEIGHT + (index // 2) * LEGEND_ROW + 8
        last = running[-1].get(key, 0) if running else 0
        parts.append(f'<rect x="{lx:.1f}" y="{ly - 9:.1f}" width="10" height="10" rx="2" '
                     f'fill="{colour}"/>')
        parts.append(f'<text class="label" x="{lx + 14:.1f}" y="{ly:.1f}">'
                     f"{escape(labels[index][:14])} {last}</text>")
    parts.append("</svg>")
    return mark_safe("".join(parts))
