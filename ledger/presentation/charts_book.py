"""A player's running balance, drawn on the server as inline SVG (like ``charts``).

One line per currency through the balance after each evening, with zero marked; the axis is
labelled in the currency's money (the texts come from the caller, who formats them)."""

from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import pgettext

from .charts import PALETTE
from .money import minus_signs

WIDTH, HEIGHT = 340, 170
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 12, 24


def balance_chart(series: dict[str, list[int]], labels: dict[str, tuple[str, str, str]], *,
                  first: str = "", last: str = "",
                  title: str = "Running balance") -> SafeString:
    """SVG of each currency's running balance (minor units per evening).

    ``labels[currency]`` = (text of the lowest value, of the highest, of the last)."""
    now = pgettext("chart", "%(currency)s now %(amount)s")
    values = [v for points in series.values() for v in points] or [0]
    low, high = min(0, *values), max(0, *values)
    if low == high:
        high = low + 1
    count = max((len(points) for points in series.values()), default=0)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    height = HEIGHT + 16 * len(series) + 4

    def x(i: int) -> float:
        return LEFT + plot_w * i / max(count - 1, 1)

    def y(v: float) -> float:
        return TOP + plot_h - plot_h * (v - low) / (high - low)

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" width="100%" role="img" '
        f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
        f'<line class="zero" x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y(0):.1f}" y2="{y(0):.1f}"/>',
        f'<text class="tick" x="{LEFT - 4}" y="{y(0) + 3:.1f}" text-anchor="end">0</text>',
        f'<text class="tick" x="{LEFT}" y="{HEIGHT - 6}">{escape(first)}</text>',
        f'<text class="tick" x="{LEFT + plot_w}" y="{HEIGHT - 6}" text-anchor="end">'
        f"{escape(last)}</text>",
    ]
    for index, (currency, points) in enumerate(sorted(series.items())):
        colour = PALETTE[index % len(PALETTE)]
        lo_text, hi_text, last_text = labels.get(currency, ("", "", ""))
        if index == 0:
            if high > 0:
                parts.append(f'<text class="tick" x="{LEFT - 4}" y="{y(high) + 3:.1f}" '
                             f'text-anchor="end">{escape(minus_signs(hi_text))}</text>')
            if low < 0:
                parts.append(f'<text class="tick" x="{LEFT - 4}" y="{y(low) + 3:.1f}" '
                             f'text-anchor="end">{escape(minus_signs(lo_text))}</text>')
        path = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(points))
        if len(points) == 1:
            path = f"{x(0):.1f},{y(points[0]):.1f} {x(1):.1f},{y(points[0]):.1f}"
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" '
                     f'stroke-linejoin="round" points="{path}"/>')
        if points:
            parts.append(f'<circle cx="{x(len(points) - 1):.1f}" cy="{y(points[-1]):.1f}" '
                         f'r="3" fill="{colour}"/>')
        ly = HEIGHT + index * 16 + 8
        parts.append(f'<rect x="{LEFT}" y="{ly - 9}" width="10" height="10" rx="2" '
                     f'fill="{colour}"/>')
        parts.append(f'<text class="label" x="{LEFT + 14}" y="{ly}">'
                     f"{escape(now % {'currency': currency, 'amount': minus_signs(last_text)})}"
                     "</text>")
    parts.append("</svg>")
    return mark_safe("".join(parts))
