"""The workflow graph of a run as server-side SVG, each phase coloured by its state.

Where each phase stands comes from ``alphred.workflow.layout`` (the rule ``alphred graph`` uses too): one
row per rank, the branches of a fan-out side by side, a join below its longest branch. Edges to a lower
row are straight where no phase stands in the way, else they bend round the left; loops bend round the
right. Every guard is
written on its edge (cut to ``LABEL_CHARS``; the whole text in the edge's tooltip).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from html import escape

from alphred.views.status import WAITING_FOR_APPROVAL, shown_phase_status
from alphred.workflow.layout import TERMINALS, Graph, GraphEdge, GraphNode

NODE_W, NODE_H, GAP_X, GAP_Y, MARGIN = 168, 46, 36, 58, 24
TERMINAL_W, TERMINAL_H = 70, 30
SKIP_LANE = 30
LABEL_CHARS = 44
CHAR_W = 6.2  # width of one character of an edge label (11px sans-serif), for the room labels need


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


def _short_label(label: str) -> str:
    return label if len(label) <= LABEL_CHARS else label[: LABEL_CHARS - 1] + "…"


def layout(graph: Graph) -> Layout:
    """Pixel positions of the graph's nodes: a column is a node's width plus a gap; rows top to bottom."""
    columns = [n.column for n in graph.nodes] or [0.0]
    left_most = min(columns)
    slot = NODE_W + GAP_X
    skips = any(_rank(graph, e.target) > _rank(graph, e.source) + 1 for e in graph.edges if not e.back)
    pad = SKIP_LANE if skips else 0  # room on the left for edges that skip rows
    result = Layout()
    for node in graph.nodes:
        terminal = node.key in TERMINALS
        w, h = (TERMINAL_W, TERMINAL_H) if terminal else (NODE_W, NODE_H)
        centre = MARGIN + pad + (node.column - left_most) * slot + NODE_W / 2
        top = MARGIN + node.rank * (NODE_H + GAP_Y) + (NODE_H - h) / 2
        result.boxes[node.key] = Box(node.key, node.rank, centre - w / 2, top, w, h)
    loops = [e for e in graph.edges if _loops(graph, e)]
    label_room = max((len(_short_label(e.label)) * CHAR_W for e in loops if e.label), default=0.0)
    right_room = min(40 * (1 + len(loops)), 160) + label_room
    rows = max((n.rank for n in graph.nodes), default=0) + 1
    result.width = MARGIN * 2 + pad + (max(columns) - left_most) * slot + NODE_W + right_room
    result.height = MARGIN * 2 + rows * NODE_H + max(rows - 1, 0) * GAP_Y
    return result


def _rank(graph: Graph, key: str) -> int:
    node = graph.node(key)
    return node.rank if node is not None else 0


def _loops(graph: Graph, edge: GraphEdge) -> bool:
    """Drawn round the right: a back edge, or any edge to a row above (not a self loop)."""
    return edge.source != edge.target and (edge.back or _rank(graph, edge.target) < _rank(graph, edge.source))


def render_svg(
    graph: Graph,
    states: Mapping[str, Mapping[str, object]],
    *,
    current: Sequence[str] = (),
    run: Mapping[str, object] | None = None,
    counts: Mapping[str, int] | None = None,
) -> str:
    """The SVG of the workflow; ``states`` maps a phase key to its entry of the status object's ``phases``,
    ``run`` is the status object (its status and reason say when a phase waits for approval), ``counts``
    the number of branches a ``for_each`` phase runs."""
    lay = layout(graph)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="graph" role="img" aria-label="workflow graph" '
        f'viewBox="0 0 {lay.width:.0f} {lay.height:.0f}" width="{lay.width:.0f}" height="{lay.height:.0f}">',
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="arrowhead"/></marker></defs>',
    ]
    labels: list[str] = []
    loop = skip = 0
    loop_x = max((b.x + b.w for b in lay.boxes.values()), default=0.0) + 28
    for edge in graph.edges:
        src, dst = lay.boxes.get(edge.source), lay.boxes.get(edge.target)
        if src is None or dst is None:
            continue
        if edge.source == edge.target:
            path, at, anchor = _self_loop(src), (src.x + src.w + 30, src.y + 4), "start"
        elif _loops(graph, edge):
            loop += 1
            right = loop_x + 12 * min(loop - 1, 10)
            path, at, anchor = _back_edge(src, dst, right), (right + 4, (src.y + dst.y + dst.h) / 2), "start"
        elif dst.rank > src.rank + 1 and _clear(src, dst, lay):
            x1, y1, x2, y2 = src.x + src.w / 2, src.y + src.h, dst.x + dst.w / 2, dst.y
            path = f"M{x1:.1f},{y1:.1f} L{x2:.1f},{y2:.1f}"
            at, anchor = ((x1 + x2) / 2 + 6, dst.y - GAP_Y / 2 - 4), "start"
        elif dst.rank > src.rank + 1:
            skip += 1
            left = MARGIN + 4 + 8 * ((skip - 1) % 3)
            path = _long_edge(src, dst, left)
            at, anchor = (dst.x + dst.w / 2 + 6, dst.y - GAP_Y / 2 - 4), "start"
        elif dst.rank == src.rank:
            leftwards = src.x < dst.x
            x1 = src.x + (src.w if leftwards else 0)
            x2 = dst.x + (0 if leftwards else dst.w)
            path = f"M{x1:.1f},{src.y + src.h / 2:.1f} L{x2:.1f},{dst.y + dst.h / 2:.1f}"
            at, anchor = ((x1 + x2) / 2, src.y + src.h / 2 - 6), "middle"
        else:
            x1, y1, x2, y2 = src.x + src.w / 2, src.y + src.h, dst.x + dst.w / 2, dst.y
            path = f"M{x1:.1f},{y1:.1f} L{x2:.1f},{y2:.1f}"
            at, anchor = ((x1 + x2) / 2 + (6 if x1 == x2 else 0), (y1 + y2) / 2 + 4), "start" if x1 == x2 else "middle"
        title = f"{edge.source} → {edge.target}" + (f" when {edge.label}" if edge.label else "")
        parts.append(
            f'<path class="edge edge-{escape(edge.kind)}" d="{path}" marker-end="url(#arrow)" '
            f'data-from="{escape(edge.source)}" data-to="{escape(edge.target)}"><title>{escape(title)}</title></path>'
        )
        if edge.label and edge.kind not in ("fan_out",):
            labels.append(
                f'<g class="edge-label" data-from="{escape(edge.source)}" data-to="{escape(edge.target)}">'
                f'<title>{escape(edge.label)}</title><text x="{at[0]:.1f}" y="{at[1]:.1f}" text-anchor="{anchor}">'
                f"{escape(_short_label(edge.label))}</text></g>"
            )
    for node in graph.nodes:
        shown = states.get(node.key)
        count = (counts or {}).get(node.key)
        parts.append(_node(node, lay.boxes[node.key], shown, node.key in current, run or {}, count))
    parts.extend(labels)  # over the edges and nodes, so that no line crosses a guard's text
    parts.append("</svg>")
    return "".join(parts)


def _clear(src: Box, dst: Box, lay: Layout, pad: float = 8.0) -> bool:
    """Whether a straight line from ``src``'s bottom to ``dst``'s top passes every box of the rows between."""
    x1, y1, x2, y2 = src.x + src.w / 2, src.y + src.h, dst.x + dst.w / 2, dst.y
    for box in lay.boxes.values():
        if not src.rank < box.rank < dst.rank:
            continue
        xs = [x1 + (x2 - x1) * (y - y1) / (y2 - y1) for y in (box.y, box.y + box.h)]
        if max(xs) >= box.x - pad and min(xs) <= box.x + box.w + pad:
            return False
    return True


def _self_loop(box: Box) -> str:
    x, y = box.x + box.w, box.y + box.h / 2
    return f"M{x:.1f},{y - 8:.1f} C{x + 36:.1f},{y - 26:.1f} {x + 36:.1f},{y + 26:.1f} {x:.1f},{y + 8:.1f}"


def _long_edge(src: Box, dst: Box, left: float) -> str:
    """An edge that skips rows bends round the left so that it crosses no phase in between."""
    x1, y1 = src.x, src.y + src.h / 2
    x2, y2 = dst.x + dst.w / 2, dst.y
    above = y2 - GAP_Y / 2
    return f"M{x1:.1f},{y1:.1f} L{left:.1f},{y1:.1f} L{left:.1f},{above:.1f} L{x2:.1f},{above:.1f} L{x2:.1f},{y2:.1f}"


def _back_edge(src: Box, dst: Box, right: float) -> str:
    x1, y1 = src.x + src.w, src.y + src.h / 2
    x2, y2 = dst.x + dst.w, dst.y + dst.h / 2
    return f"M{x1:.1f},{y1:.1f} C{right:.1f},{y1:.1f} {right:.1f},{y2:.1f} {x2:.1f},{y2:.1f}"


def _node(
    node: GraphNode,
    box: Box,
    state: Mapping[str, object] | None,
    current: bool,
    run: Mapping[str, object],
    count: int | None,
) -> str:
    key = node.key
    if key in TERMINALS:
        cls = "terminal end" if key == TERMINALS[0] else "terminal fail"
        cx, cy = box.x + box.w / 2, box.y + box.h / 2
        return (
            f'<g class="node {cls}" data-phase="{escape(key)}"><rect x="{box.x:.1f}" y="{box.y:.1f}" '
            f'width="{box.w:.0f}" height="{box.h:.0f}" rx="15"/>'
            f'<text x="{cx:.1f}" y="{cy + 4:.1f}" text-anchor="middle">{escape(key)}</text></g>'
        )
    status = str(state.get("status", "pending")) if state else "pending"
    shown = shown_phase_status(_text(run.get("status")), _text(run.get("reason")), status)
    attempt = state.get("attempt", 0) if state else 0
    kind = f"join {node.join}" if node.join else node.kind
    if node.each is not None:
        kind = f"× {count}" if count is not None else "for each"
    detail = shown if shown == WAITING_FOR_APPROVAL else f"{kind} · {shown}" + (f" · #{attempt}" if attempt else "")
    branch = state.get("branch") if state else None  # phases of a parallel branch carry their git branch
    lane = f" on {branch}" if branch else ""
    each = f" (for each {node.each})" if node.each is not None else ""
    cx = box.x + box.w / 2
    classes = f"node st-{'waiting' if shown == WAITING_FOR_APPROVAL else status}" + (" current" if current else "")
    stack = "".join(
        f'<rect class="stack" x="{box.x + d:.1f}" y="{box.y + d:.1f}" width="{box.w:.0f}" height="{box.h:.0f}" rx="8"/>'
        for d in ((8, 4) if node.each is not None else ())
    )
    lane_attr = f' data-lane="{escape(node.lane)}"' if node.lane else ""
    return (
        f'<g class="{escape(classes)}" data-phase="{escape(key)}" data-status="{escape(status)}"{lane_attr}>'
        f"<title>{escape(key)}: {escape(detail + lane + each)}</title>{stack}"
        f'<rect x="{box.x:.1f}" y="{box.y:.1f}" width="{box.w:.0f}" height="{box.h:.0f}" rx="8"/>'
        f'<text class="key" x="{cx:.1f}" y="{box.y + 19:.1f}" text-anchor="middle">{escape(_short(key))}</text>'
        f'<text class="detail" x="{cx:.1f}" y="{box.y + 36:.1f}" text-anchor="middle">'
        f"{escape(_short(detail, 28))}</text>"
        "</g>"
    )


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def _short(key: str, limit: int = 20) -> str:
    return key if len(key) <= limit else key[: limit - 1] + "…"
