"""Where each phase of a workflow graph stands: its rank (row) and column. One rule for every drawing.

``alphred graph`` (Mermaid and DOT text, ``workflow/diagram.py``) and the web view's SVG
(``ui/graph_svg.py``) both place phases with ``arrange``:

- **Loops.** A depth-first walk from the start phase (transitions in file order) marks each edge back to a
  phase still on the walk's path as a back edge (a loop, a retry round); every other edge goes down.
- **Ranks.** A phase's rank is the longest chain of forward edges from the start phase, so a join sits
  below the longest of its branches and a phase never shares a row with one that leads to it. Phases the
  start does not reach rank below the others; ``$end`` and ``$fail`` take a last row of their own.
- **Columns.** The branches of a fan-out stand side by side: branch *i* of *k* on column ``i - (k-1)/2``,
  every phase of the branch on its branch's column (a ``for_each`` target is one branch drawn with a count);
  other phases on column 0. Phases that would share a column in a row are spread one column apart, in the
  order of the columns they asked for (then file order), and the row is re-centred on them.

Pure: plain values in, plain values out; ``workflow_graph`` reads a validated ``Workflow``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from alphred.lazy import deferred_dataclass
from alphred.workflow.model import END, FAIL, Transition, Workflow

TERMINALS = (END, FAIL)


@deferred_dataclass(frozen=True)
class GraphNode:
    """A phase (or ``$end``/``$fail``) and where it stands; ``lane`` is the head of its fan-out branch.

    ``kind`` is the phase type (``terminal`` for ``$end``/``$fail``), ``detail`` what a drawing writes under
    the key (the provider of an agent phase), ``join`` the phase's ``join:`` and ``each`` the list a
    ``for_each`` transition runs it for (the node stands for one branch per item).
    """

    key: str
    kind: str
    detail: str = ""
    join: str | None = None
    each: str | None = None
    lane: str | None = None
    rank: int = 0
    column: float = 0.0


@deferred_dataclass(frozen=True)
class GraphEdge:
    """A transition (one per target of a fan-out): its guard text as ``label``; ``kind`` is ``next``,
    ``fan_out``, ``for_each`` or ``conflict`` (a join to its ``on_conflict`` resolver); ``back`` marks a loop."""

    source: str
    target: str
    label: str = ""
    kind: str = "next"
    back: bool = False


@deferred_dataclass(frozen=True)
class Graph:
    """A placed graph: nodes in file order (terminals last) and edges in file order."""

    start: str
    nodes: tuple[GraphNode, ...]
    edges: tuple[GraphEdge, ...]

    def rows(self) -> list[list[GraphNode]]:
        """The nodes of each rank, left to right."""
        rows: list[list[GraphNode]] = [[] for _ in range(max((n.rank for n in self.nodes), default=-1) + 1)]
        for node in sorted(self.nodes, key=lambda n: (n.rank, n.column)):
            rows[node.rank].append(node)
        return rows

    def node(self, key: str) -> GraphNode | None:
        """The node called ``key``, if any."""
        return next((n for n in self.nodes if n.key == key), None)


def edge_label(t: Transition) -> str:
    """What an edge says: its guard and its ``max``."""
    parts = [t.when] if t.when else []
    if t.max is not None:
        parts.append(f"max {t.max}")
    return ", ".join(parts)


def workflow_graph(workflow: Workflow) -> Graph:
    """``workflow``'s phases and transitions, placed by ``arrange``."""
    each: dict[str, str] = {}
    edges: list[GraphEdge] = []
    for phase in workflow.phases:
        for t in phase.transitions:
            path = t.for_each  # a dynamic fan-out (SPEC §13)
            items = ".".join(path) if path is not None else None
            kind = "for_each" if items else "fan_out" if t.fan_out else "next"
            label = f"for each {items}" if items else edge_label(t)
            for target in t.targets:
                edges.append(GraphEdge(phase.key, target, label, kind))
                if items:
                    each[target] = items
        if phase.on_conflict is not None:
            edges.append(GraphEdge(phase.key, phase.on_conflict, "on conflict", "conflict"))
    nodes = [
        GraphNode(
            p.key,
            p.type.value,
            detail=p.provider or "" if p.type.value == "agent" else p.type.value,
            join=p.join,
            each=each.get(p.key),
        )
        for p in workflow.phases
    ]
    lanes: dict[str, tuple[str, float]] = {}
    for group in workflow.fan_outs:
        count = len(group.branches)
        for index, head in enumerate(group.branches):
            for key in group.regions.get(head, ()):
                lanes.setdefault(key, (head, index - (count - 1) / 2))
    for target in each:  # a for_each target is a branch of its own, drawn once
        lanes.setdefault(target, (target, 0.0))
    return arrange(workflow.start, nodes, edges, lanes)


def arrange(
    start: str,
    nodes: Sequence[GraphNode],
    edges: Sequence[GraphEdge],
    lanes: Mapping[str, tuple[str, float]] | None = None,
) -> Graph:
    """Place ``nodes`` (phases in file order) by the module's rule; ``lanes`` maps a phase inside a branch
    to its branch head and column. Terminals named by an edge are added; edges to unknown nodes dropped."""
    lanes = lanes or {}
    known = {n.key for n in nodes}
    terminals = [t for t in TERMINALS if any(e.target == t for e in edges)]
    edges = [e for e in edges if e.source in known and (e.target in known or e.target in terminals)]
    back = _back_edges(start, [n.key for n in nodes], edges)
    marked = tuple(replace(e, back=(i in back)) for i, e in enumerate(edges))
    ranks = _ranks(start, [n.key for n in nodes], [e for e in marked if not e.back and e.target in known])
    last = max(ranks.values(), default=-1) + 1
    placed = [replace(n, rank=ranks[n.key], lane=lanes.get(n.key, (None, 0.0))[0]) for n in nodes]
    placed += [GraphNode(t, "terminal", rank=last) for t in terminals]
    wanted = {n.key: lanes[n.key][1] if n.key in lanes else 0.0 for n in placed}
    order = {n.key: i for i, n in enumerate(placed)}
    columns: dict[str, float] = {}
    for rank in range(last + 1):
        row = sorted((n.key for n in placed if n.rank == rank), key=lambda k: (wanted[k], order[k]))
        columns.update(_spread(row, wanted))
    return Graph(start, tuple(replace(n, column=columns[n.key]) for n in placed), marked)


def _spread(row: list[str], wanted: Mapping[str, float]) -> dict[str, float]:
    """Columns for one row: each as wanted, pushed right to stay one apart; re-centred if any moved."""
    found: dict[str, float] = {}
    previous: float | None = None
    for key in row:
        column = wanted[key] if previous is None else max(wanted[key], previous + 1)
        found[key] = previous = column
    if any(found[k] != wanted[k] for k in row):
        shift = sum(wanted[k] for k in row) / len(row) - sum(found.values()) / len(row)
        found = {k: c + shift for k, c in found.items()}
    return found


def _back_edges(start: str, keys: Sequence[str], edges: Sequence[GraphEdge]) -> set[int]:
    """Indexes of the edges that lead back to a phase on the depth-first path (start first, then the
    phases it does not reach, in file order)."""
    out: dict[str, list[int]] = {k: [] for k in keys}
    for index, edge in enumerate(edges):
        out[edge.source].append(index)
    back: set[int] = set()
    done: set[str] = set()
    for root in _roots(start, keys):
        if root in done:
            continue
        path = {root}
        stack: list[tuple[str, Iterable[int]]] = [(root, iter(out[root]))]
        done.add(root)
        while stack:
            key, pending = stack[-1]
            step = next(iter(pending), None)
            if step is None:
                stack.pop()
                path.discard(key)
                continue
            target = edges[step].target
            if target in path:
                back.add(step)
            elif target in out and target not in done:
                done.add(target)
                path.add(target)
                stack.append((target, iter(out[target])))
    return back


def _roots(start: str, keys: Sequence[str]) -> list[str]:
    return ([start] if start in keys else []) + [k for k in keys if k != start]


def _ranks(start: str, keys: Sequence[str], forward: Sequence[GraphEdge]) -> dict[str, int]:
    """Longest forward path from the start; phases it does not reach below, by the same rule among them."""
    following: dict[str, list[str]] = {k: [] for k in keys}
    for edge in forward:
        following[edge.source].append(edge.target)
    reached = _reach([start] if start in following else [], following)
    ranks = _longest([k for k in keys if k in reached], following, {start: 0} if start in reached else {})
    rest = [k for k in keys if k not in reached]
    if rest:
        below = max(ranks.values(), default=-1) + 1
        entered = {t for k in rest for t in following[k]}
        roots = {k: below for k in rest if k not in entered} or {rest[0]: below}
        ranks.update(_longest(rest, following, roots))
        for key in rest:
            ranks.setdefault(key, below)
    return ranks


def _reach(roots: Sequence[str], following: Mapping[str, Sequence[str]]) -> set[str]:
    seen = set(roots)
    todo = list(roots)
    while todo:
        for target in following[todo.pop()]:
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def _longest(keys: Sequence[str], following: Mapping[str, Sequence[str]], roots: Mapping[str, int]) -> dict[str, int]:
    """Longest-path ranks over the (acyclic) forward edges among ``keys``, from ``roots``."""
    inside = set(keys)
    waiting = {k: 0 for k in keys}
    for key in keys:
        for target in following[key]:
            if target in inside:
                waiting[target] += 1
    ranks = dict(roots)
    ready = [k for k in keys if waiting[k] == 0]
    while ready:
        key = ready.pop(0)
        rank = ranks.setdefault(key, min(roots.values(), default=0))
        for target in following[key]:
            if target not in inside:
                continue
            ranks[target] = max(ranks.get(target, 0), rank + 1)
            waiting[target] -= 1
            if waiting[target] == 0:
                ready.append(target)
    return ranks
