"""The Agent activity page's chart of the last days of model use: three small bar
charts (tokens, cost, calls) sharing one day axis, drawn as inline SVG on the server.

No script and no inline style (the site's CSP allows neither): bars carry classes,
and static/stgy.css colours them from the theme's variables, so the chart follows the
light and dark themes. The figures are also in a table beside it for screen readers
(templates/agents/_usage_chart.html)."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from agents.usage_report import DayUsage

WIDTH = 280  # viewBox units of one panel
HEIGHT = 96
PLOT_TOP = 18  # room for the panel's label and maximum
PLOT_BOTTOM = 82  # then the day labels
LEFT = 4
GAP = 2


@dataclass
class Bar:
    x: float
    y: float
    width: float
    height: float
    css: str
    title: str


@dataclass
class Panel:
    key: str
    label: str
    peak: str
    latest: str
    bars: list[Bar] = field(default_factory=list)
    ticks: list[tuple[float, str]] = field(default_factory=list)
    width: int = WIDTH
    height: int = HEIGHT
    baseline: int = PLOT_BOTTOM


def _tokens(value: int) -> str:
    if value >= 1_000_000:
        return f"{value / 1_000_000:.1f}M"
    if value >= 10_000:
        return f"{value / 1_000:.0f}k"
    if value >= 1_000:
        return f"{value / 1_000:.1f}k"
    return str(value)


def money(value: Decimal | float) -> str:
    value = float(value)
    if value == 0:
        return "0"
    return f"{value:.2f}" if value >= 1 else f"{value:.4f}"


def _panel(key: str, label: str, days: list[DayUsage], parts, fmt) -> Panel:
    """`parts(day)` -> [(value, css class, what)] stacked bottom-up."""
    totals = [sum(value for value, _, _ in parts(d)) for d in days]
    peak = max(totals, default=0)
    panel = Panel(key=key, label=label, peak=fmt(peak), latest=fmt(totals[-1]) if totals else "0")
    slot = (WIDTH - LEFT) / max(1, len(days))
    scale = (PLOT_BOTTOM - PLOT_TOP) / float(peak) if peak else 0.0
    for i, day in enumerate(days):
        x = LEFT + i * slot + GAP / 2
        y = float(PLOT_BOTTOM)
        for value, css, what in parts(day):
            height = float(value) * scale
            if height <= 0:
                continue
            y -= height
            panel.bars.append(Bar(
                x=round(x, 2), y=round(y, 2), width=round(slot - GAP, 2), height=round(height, 2), css=css,
                title=f"{day.day:%b %d}: {fmt(value)} {what}",
            ))
        if i % 3 == (len(days) - 1) % 3:  # every third day, ending on today
            panel.ticks.append((round(x + (slot - GAP) / 2, 2), f"{day.day:%m-%d}"))
    return panel


def usage_panels(days: list[DayUsage]) -> list[Panel]:
    return [
        _panel("tokens", "Tokens", days, lambda d: [
            (d.cached_tokens, "bar-cached", "cached prompt tokens"),
            (d.fresh_tokens, "bar-fresh", "uncached prompt tokens"),
            (d.completion_tokens, "bar-completion", "completion tokens"),
        ], _tokens),
        _panel("cost", "Cost", days, lambda d: [(d.cost, "bar-cost", "cost")], money),
        _panel("calls", "Calls", days, lambda d: [(d.calls, "bar-calls", "calls")], str),
    ]


def usage_summary(days: list[DayUsage]) -> dict:
    """Totals over the days, for the chart's description and the headline."""
    prompt = sum(d.prompt_tokens for d in days)
    cached = sum(d.cached_tokens for d in days)
    return {
        "calls": sum(d.calls for d in days),
        "prompt_tokens": prompt,
        "cached_tokens": cached,
        "completion_tokens": sum(d.completion_tokens for d in days),
        "cost": money(sum((d.cost for d in days), start=Decimal(0))),
        "cached_share": round(100 * cached / prompt) if prompt else 0,
        "first": days[0].day if days else None,
        "last": days[-1].day if days else None,
    }
