"""The workflow graph of a run as server-side SVG, each phase coloured by its state.

Layout: phases are ranked by their distance (fewest transitions) from the start phase; a rank is one row,
its phases side by side in file order, so the branches of a fan-out (which all sit at the same distance)
come out as parallel lanes. Phases the start cannot reach go below, then ``$end`` and ``$fail``. Edges to
a lower rank are straight lines; edges back up (loops) bend round the right-hand side.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from html import escape

END, FAIL = "$end", "$fail"
NODE_W, NODE_H, GAP_X, GAP_Y, MARGIN = 168, 46, 36, 54, 24
TERMINAL_W = 70
SKIP_LANE = 30


@dataclass(frozen=True)
class Edge:
    """One transition: ``target`` is a phase key, ``$end`` or ``$fail``."""

    source: str
    target: str
    label: str = ""


@dataclass(frozen=True)
class Topology:
    """A workflow's phases (file order, with their type), its start phase and its transitions."""

    phases: tuple[tuple[str, str], ...]
    start: str
    edges: tuple[Edge, ...] = ()


@dataclass
class Box:
    """Where one phase (or terminal) is drawn."""

    key: str
    rank: int
    x: float = 0.0
    y: float = 0.0
    w: float = NODE_W
    h: float = NODE_H


@dataclass
class Layout:
    """Positions of every box, and the size of the picture."""

    boxes: dict[str, Box] = field(default_factory=dict)
    width: float = 0.0
    height: float = 0.0
    rows: list[list[str]] = field(default_factory=list)


def ranks(topology: Topology) -> dict[str, int]:
    """Each phase's distance from the start (breadth first); unreachable phases rank after the deepest."""
    keys = [key for key, _ in topology.phases]
    out: dict[str, list[str]] = {key: [] for key in keys}
    for edge in topology.edges:
        if edge.source in out and edge.target in out:
            out[edge.source].append(edge.target)
    found: dict[str, int] = {}
    if topology.start in out:
        found[topology.start] = 0
        queue = deque([topology.start])
        while queue:
            key = queue.popleft()
            for target in out[key]:
                if target not in found:
                    found[target] = found[key] + 1
                    queue.append(target)
    deepest = max(found.values(), default=-1)
    for key in keys:
        found.setdefault(key, deepest + 1)
    return found


def layout(topology: Topology) -> Layout:
    """Rank rows, phases side by side within a row, every row centred; terminals in a last row."""
    rank_of = ranks(topology)
    order = {key: i for i, (key, _) in enumerate(topology.phases)}
    rows: list[list[str]] = [[] for _ in range(max(rank_of.values(), default=-1) + 1)]
    for key in sorted(rank_of, key=lambda k: (rank_of[k], order[k])):
        rows[rank_of[key]].append(key)
    terminals = [t for t in (END, FAIL) if any(e.target == t for e in topology.edges)]
    if terminals:
        rows.append(terminals)
    result = Layout(rows=rows)
    widths = [sum(_width(k) for k in row) + GAP_X * (len(row) - 1) for row in rows]
    inner = max(widths, default=NODE_W)
    loop_room = 40 * (1 + sum(1 for e in topology.edges if _is_back(e, rank_of)))
    terminal_rank = len(rows) - 1
    skips = any(_rank(e.target, rank_of, terminal_rank) > rank_of.get(e.source, 0) + 1 for e in topology.edges)
    pad = SKIP_LANE if skips else 0  # room on the left for edges that skip ranks
    for r, row in enumerate(rows):
        x = MARGIN + pad + (inner - widths[r]) / 2
        for key in row:
            w = _width(key)
            h = NODE_H if key not in (END, FAIL) else 30
            result.boxes[key] = Box(key, r, x, MARGIN + r * (NODE_H + GAP_Y) + (NODE_H - h) / 2, w, h)
            x += w + GAP_X
    result.width = MARGIN * 2 + pad + inner + min(loop_room, 160)
    result.height = MARGIN * 2 + len(rows) * NODE_H + max(len(rows) - 1, 0) * GAP_Y
    return result


def _rank(key: str, rank_of: Mapping[str, int], terminal_rank: int) -> int:
    return terminal_rank if key in (END, FAIL) else rank_of.get(key, 0)


def _width(key: str) -> float:
    return TERMINAL_W if key in (END, FAIL) else NODE_W


def _is_back(edge: Edge, rank_of: Mapping[str, int]) -> bool:
    return edge.target in rank_of and edge.source in rank_of and rank_of[edge.target] <= rank_of[edge.source]


def render_svg(
    topology: Topology,
    states: Mapping[str, Mapping[str, object]],
    *,
    current: Sequence[str] = (),
) -> str:
    """The SVG of the workflow; ``states`` maps a phase key to its entry of the status object's ``phases``."""
    lay = layout(topology)
    rank_of = {k: b.rank for k, b in lay.boxes.items()}
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="graph" role="img" aria-label="workflow graph" '
        f'viewBox="0 0 {lay.width:.0f} {lay.height:.0f}" width="{lay.width:.0f}" height="{lay.height:.0f}">',
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="arrowhead"/></marker></defs>',
    ]
    loop = skip = 0
    for edge in topology.edges:
        src, dst = lay.boxes.get(edge.source), lay.boxes.get(edge.target)
        if src is None or dst is None:
            continue
        if edge.source == edge.target:
            path = _self_loop(src)
        elif rank_of[edge.target] == rank_of[edge.source] + 1:
            path = f"M{src.x + src.w / 2:.1f},{src.y + src.h:.1f} L{dst.x + dst.w / 2:.1f},{dst.y:.1f}"
        elif rank_of[edge.target] > rank_of[edge.source]:
            skip += 1
            path = _long_edge(src, dst, MARGIN + 4 + 8 * ((skip - 1) % 3))
        elif rank_of[edge.target] == rank_of[edge.source]:
            left = src.x < dst.x
            x1 = src.x + (src.w if left else 0)
            x2 = dst.x + (0 if left else dst.w)
            path = f"M{x1:.1f},{src.y + src.h / 2:.1f} L{x2:.1f},{dst.y + dst.h / 2:.1f}"
        else:
            loop += 1
            path = _back_edge(src, dst, lay.width - MARGIN - 12 * (loop - 1))
        title = f"{edge.source} → {edge.target}" + (f" when {edge.label}" if edge.label else "")
        parts.append(
            f'<path class="edge" d="{path}" marker-end="url(#arrow)" data-from="{escape(edge.source)}" '
            f'data-to="{escape(edge.target)}"><title>{escape(title)}</title></path>'
        )
    kinds = dict(topology.phases)
    for key, box in lay.boxes.items():
        parts.append(_node(key, box, kinds.get(key, "terminal"), states.get(key), key in current))
    parts.append("</svg>")
    return "".join(parts)


def _self_loop(box: Box) -> str:
    x, y = box.x + box.w, box.y + box.h / 2
    return f"M{x:.1f},{y - 8:.1f} C{x + 36:.1f},{y - 26:.1f} {x + 36:.1f},{y + 26:.1f} {x:.1f},{y + 8:.1f}"


def _long_edge(src: Box, dst: Box, left: float) -> str:
    """An edge that skips ranks bends round the left so that it crosses no phase in between."""
    x1, y1 = src.x, src.y + src.h / 2
    x2, y2 = dst.x + dst.w / 2, dst.y
    above = y2 - GAP_Y / 2
    return f"M{x1:.1f},{y1:.1f} L{left:.1f},{y1:.1f} L{left:.1f},{above:.1f} L{x2:.1f},{above:.1f} L{x2:.1f},{y2:.1f}"


def _back_edge(src: Box, dst: Box, right: float) -> str:
    x1, y1 = src.x + src.w, src.y + src.h / 2
    x2, y2 = dst.x + dst.w, dst.y + dst.h / 2
    return f"M{x1:.1f},{y1:.1f} C{right:.1f},{y1:.1f} {right:.1f},{y2:.1f} {x2:.1f},{y2:.1f}"


def _node(key: str, box: Box, kind: str, state: Mapping[str, object] | None, current: bool) -> str:
    if key in (END, FAIL):
        cls = "terminal end" if key == END else "terminal fail"
        cx, cy = box.x + box.w / 2, box.y + box.h / 2
        return (
            f'<g class="node {cls}" data-phase="{escape(key)}"><rect x="{box.x:.1f}" y="{box.y:.1f}" '
            f'width="{box.w:.0f}" height="{box.h:.0f}" rx="15"/>'
            f'<text x="{cx:.1f}" y="{cy + 4:.1f}" text-anchor="middle">{escape(key)}</text></g>'
        )
    status = str(state.get("status", "pending")) if state else "pending"
    attempt = state.get("attempt", 0) if state else 0
    detail = f"{kind} · {status}" + (f" · #{attempt}" if attempt else "")
    branch = state.get("branch") if state else None  # phases of a parallel branch carry their git branch
    lane = f" on {branch}" if branch else ""
    cx = box.x + box.w / 2
    extra = " current" if current else ""
    return (
        f'<g class="node st-{escape(status)}{extra}" data-phase="{escape(key)}" data-status="{escape(status)}">'
        f"<title>{escape(key)}: {escape(detail + lane)}</title>"
        f'<rect x="{box.x:.1f}" y="{box.y:.1f}" width="{box.w:.0f}" height="{box.h:.0f}" rx="8"/>'
        f'<text class="key" x="{cx:.1f}" y="{box.y + 19:.1f}" text-anchor="middle">{escape(_short(key))}</text>'
        f'<text class="detail" x="{cx:.1f}" y="{box.y + 36:.1f}" text-anchor="middle">{escape(detail)}</text></g>'
    )


def _short(key: str, limit: int = 20) -> str:
    return key if len(key) <= limit else key[: limit - 1] + "…"
