"""The evaluation of a game move by move: a standalone SVG chart, and a one-screen text version.

    >>> from engine.pictures.evalgraph import GraphPoint, eval_graph_svg
    >>> points = [GraphPoint(0, 20), GraphPoint(1, 35, label="1. 炮二平五"), GraphPoint(2, -250, mark="blunder")]
    >>> svg = eval_graph_svg(points, title="Game 1")

Scores are from Red's point of view, Red's advantage drawn upwards. The vertical scale is squashed,
tanh(cp / 600), so that small edges stay visible next to won positions; mates are drawn at the edge.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Optional, Sequence
from xml.sax.saxutils import escape

MARKS = ("inaccuracy", "mistake", "blunder")
MARK_COLOURS = {"inaccuracy": "#3d8fd6", "mistake": "#e8900c", "blunder": "#d42a2a"}
RED_TINT = "#e05a4f"
BLACK_TINT = "#3a3a3a"
AXIS_COLOUR = "#777"
FONT = "font-family=\"'Noto Sans CJK SC', 'Microsoft YaHei', sans-serif\""


@dataclass(frozen=True)
class GraphPoint:
    """The evaluation after `ply` half-moves (0 = the start position).

    `score` is in centipawns from Red's point of view (None when unknown); `mate` is a mate in that many
    moves from Red's point of view (positive: Red mates, negative: Red is mated) and takes precedence.
    `label` is the move text for tooltips; `mark` is None, "inaccuracy", "mistake" or "blunder".
    """

    ply: int
    score: Optional[int]
    mate: Optional[int] = None
    label: str = ""
    mark: Optional[str] = None

    def __post_init__(self) -> None:
        if self.mark is not None and self.mark not in MARKS:
            raise ValueError(f"unknown mark {self.mark!r}: expected None or one of {', '.join(MARKS)}")
        if self.mate == 0:
            raise ValueError(
                "mate=0 does not say who is mated: pass +n when Red mates in n moves, -n when Red is mated "
                "(for a position already checkmated, +1 if Red gave the mate, -1 if Black did)"
            )

    @property
    def value(self) -> Optional[float]:
        """The evaluation on the chart's scale, -1 (Black wins) to +1 (Red wins); None when unknown."""
        if self.mate is not None:
            return 1.0 if self.mate > 0 else -1.0
        if self.score is None:
            return None
        return math.tanh(self.score / 600)

    def score_text(self) -> str:
        """The evaluation in pawns ("+1.35"), as a mate ("+M3", "-M2"), or "?"."""
        if self.mate is not None:
            return f"{'+' if self.mate > 0 else '-'}M{abs(self.mate)}"
        if self.score is None:
            return "?"
        return f"{self.score / 100:+.2f}"


def _n(value: float) -> str:
    return f"{round(value, 1):g}"


def _tick_step(span: int, most: int = 10) -> int:
    """A round step (1, 2, 5, 10, 20, ...) giving at most `most` ticks over `span`."""
    step = 1
    while span / step > most:
        step = step * 5 // 2 if str(step)[0] == "2" else step * 2
    return step


def _segments(points: Sequence[GraphPoint]) -> list[list[tuple[int, float]]]:
    """Runs of consecutive points with a known value, as (ply, value); an unknown value breaks the line."""
    runs: list[list[tuple[int, float]]] = [[]]
    for point in points:
        value = point.value
        if value is None:
            if runs[-1]:
                runs.append([])
        else:
            runs[-1].append((point.ply, value))
    return [run for run in runs if run]


def _with_crossings(run: list[tuple[int, float]]) -> list[tuple[float, float]]:
    """A run with the points where it crosses zero added, so that each side can be filled exactly."""
    out: list[tuple[float, float]] = [run[0]]
    for (x0, v0), (x1, v1) in zip(run, run[1:]):
        if v0 * v1 < 0:
            out.append((x0 + (x1 - x0) * v0 / (v0 - v1), 0.0))
        out.append((x1, v1))
    return out


def eval_graph_svg(points: Sequence[GraphPoint], *, title: str = "", width: int = 800, height: int = 320) -> str:
    """A standalone SVG chart of the evaluation over a game, `width` x `height` pixels.

    x is the move number, y the score (Red's advantage up), with the area filled red above the zero line
    and black below it. Marked moves get a dot in the colour of their severity; every point has a
    `<title>` tooltip with its label and score. An empty list gives a chart that says "no data".
    """
    left, right, bottom = 48, 16, 34
    top = 54 if title else 34            # a title gets a row of its own, the legend the row below it
    plot_w, plot_h = width - left - right, height - top - bottom
    mid = top + plot_h / 2
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" {FONT} font-size="12">',
        '<rect width="100%" height="100%" fill="#fff"/>',
    ]
    if title:
        out.append(f'<text class="title" x="{left}" y="20" font-size="15" font-weight="bold">{escape(title)}</text>')
    out.append(_legend(width - right, top - 14))
    out.append(f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" stroke="{AXIS_COLOUR}"/>')

    def y_of(value: float) -> float:
        return mid - value * plot_h / 2

    for pawns in (1, 3, 10):  # horizontal grid lines in pawns, on the squashed scale
        for sign in (1, -1):
            y = _n(y_of(math.tanh(sign * pawns / 6)))
            out.append(f'<line x1="{left}" y1="{y}" x2="{left + plot_w}" y2="{y}" stroke="#e4e4e4"/>')
            out.append(f'<text x="{left - 6}" y="{y}" text-anchor="end" dominant-baseline="central" '
                       f'fill="{AXIS_COLOUR}">{sign * pawns:+d}</text>')
    out.append(f'<text x="{left - 6}" y="{_n(mid)}" text-anchor="end" dominant-baseline="central" '
               f'fill="{AXIS_COLOUR}">0</text>')

    points = sorted(points, key=lambda point: point.ply)
    known = [point for point in points if point.value is not None]
    first = min((point.ply for point in points), default=0)
    last = max(max((point.ply for point in points), default=0), first + 1)

    def x_of(ply: float) -> float:
        return left + (ply - first) * plot_w / (last - first)

    if known:
        out += _move_axis(first, last, x_of, top + plot_h)
    else:
        out.append(f'<text class="no-data" x="{_n(left + plot_w / 2)}" y="{_n(mid - 14)}" text-anchor="middle" '
                   f'fill="{AXIS_COLOUR}">no data</text>')
    for run in _segments(points):
        line = _with_crossings(run)
        for tint, clip in ((RED_TINT, max), (BLACK_TINT, min)):
            outline = [(line[0][0], 0.0)] + [(x, clip(v, 0.0)) for x, v in line] + [(line[-1][0], 0.0)]
            coords = " ".join(f"{_n(x_of(x))},{_n(y_of(v))}" for x, v in outline)
            out.append(f'<polygon class="area" points="{coords}" fill="{tint}" fill-opacity="0.35"/>')
        coords = " ".join(f"{_n(x_of(x))},{_n(y_of(v))}" for x, v in run)
        out.append(f'<polyline class="line" points="{coords}" fill="none" stroke="#222" stroke-width="1.5" '
                   'stroke-linejoin="round"/>')
    out.append(f'<line x1="{left}" y1="{_n(mid)}" x2="{left + plot_w}" y2="{_n(mid)}" stroke="{AXIS_COLOUR}"/>')

    for point in sorted(known, key=lambda point: point.mark is not None):  # marked dots on top
        x, y = _n(x_of(point.ply)), _n(y_of(point.value))
        tooltip = escape(" ".join(part for part in (point.label, point.score_text(), point.mark or "") if part))
        if point.mark:
            out.append(f'<circle class="mark {point.mark}" cx="{x}" cy="{y}" r="4.5" '
                       f'fill="{MARK_COLOURS[point.mark]}" stroke="#fff"><title>{tooltip}</title></circle>')
        else:  # an invisible hover target, for the tooltip
            out.append(f'<circle class="point" cx="{x}" cy="{y}" r="4" fill="#000" fill-opacity="0">'
                       f'<title>{tooltip}</title></circle>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _move_axis(first: int, last: int, x_of: Callable[[float], float], y: int) -> list[str]:
    """Ticks labelled with move numbers along the bottom of the plot: move n is complete after ply 2n."""
    out = []
    step = _tick_step(max(1, (last - first) // 2))
    for move in range(0, last // 2 + 1, step):
        if 2 * move >= first:
            x = _n(x_of(2 * move))
            out.append(f'<line x1="{x}" y1="{y}" x2="{x}" y2="{y + 4}" stroke="{AXIS_COLOUR}"/>')
            out.append(f'<text x="{x}" y="{y + 16}" text-anchor="middle" fill="{AXIS_COLOUR}">{move}</text>')
    out.append(f'<text x="{_n(x_of((first + last) / 2))}" y="{y + 30}" text-anchor="middle" '
               f'fill="{AXIS_COLOUR}">move</text>')
    return out


def _legend(right_edge: int, y: int) -> str:
    """Swatches for the two sides and dots for the marks, in a row ending at `right_edge`."""
    items = [("rect", RED_TINT, "Red better"), ("rect", BLACK_TINT, "Black better")]
    items += [("circle", MARK_COLOURS[mark], mark) for mark in MARKS]
    parts, x = [], right_edge
    for shape, colour, text in reversed(items):
        x -= 7 * len(text)
        parts.append(f'<text x="{x}" y="{y}" dominant-baseline="central">{text}</text>')
        x -= 14
        if shape == "rect":
            parts.append(f'<rect x="{x}" y="{y - 5}" width="10" height="10" fill="{colour}" fill-opacity="0.6"/>')
        else:
            parts.append(f'<circle cx="{x + 5}" cy="{y}" r="4.5" fill="{colour}"/>')
        x -= 12
    return f'<g class="legend" fill="{AXIS_COLOUR}">' + "".join(parts) + "</g>"


_TEXT_MARKS = {"inaccuracy": "i", "mistake": "m", "blunder": "b"}


def eval_graph_text(points: Sequence[GraphPoint], width: int = 60) -> str:
    """A terminal bar chart of the evaluation: four rows for Red's advantage above the axis, four for
    Black's below, one column per point (or per group of points in a long game, showing the last value
    and the worst mark of the group). Marks appear on the axis as i, m, b.

    Uses the block characters █ ▄ ▀ and ─, one column wide in usual terminals."""
    if not points:
        return "no data"
    points = sorted(points, key=lambda point: point.ply)
    size = min(len(points), width)
    groups = [points[i * len(points) // size:(i + 1) * len(points) // size] for i in range(size)]
    halves = []  # signed bar heights in half-rows, -8..8, or None
    axis = []
    for group in groups:
        values = [point.value for point in group if point.value is not None]
        halves.append(round(values[-1] * 8) if values else None)
        marks = [point.mark for point in group if point.mark]
        axis.append(_TEXT_MARKS[max(marks, key=MARKS.index)] if marks else "─")

    def cell(h: Optional[int], row: int) -> str:
        """Row 1..4 above the axis, -1..-4 below; the bar covers this row fully, half or not at all."""
        if h is None or h * row <= 0:
            return " "
        filled = abs(h) - 2 * (abs(row) - 1)
        if filled >= 2:
            return "█"
        return ("▄" if row > 0 else "▀") if filled == 1 else " "

    rows = ["".join(cell(h, row) for h in halves) for row in (4, 3, 2, 1)]
    rows.append("".join(axis))
    rows += ["".join(cell(h, row) for h in halves) for row in (-1, -2, -3, -4)]
    labels = ["Red  "] + ["     "] * 3 + ["   0 "] + ["     "] * 3 + ["Black"]
    lines = [f"{label} {row}" for label, row in zip(labels, rows)]
    lines.append(f"      ply {points[0].ply}..{points[-1].ply}; marks: i inaccuracy, m mistake, b blunder")
    return "\n".join(lines)
