"""Render a workflow's phases and transitions as Mermaid or Graphviz DOT text.

Phases are listed row by row as ``workflow/layout.py`` places them (the web view's rule): DOT keeps each
row on one rank (``rank=same``), so the branches of a fan-out stand side by side above their join.
"""

from __future__ import annotations

import json

from alphred.workflow.layout import edge_label, workflow_graph
from alphred.workflow.model import END, FAIL, Phase, Transition, Workflow

_SHAPES = {
    "agent": ("[", "]"),
    "command": ("[/", "/]"),
    "approval": ("{", "}"),
    "pull_request": ("[[", "]]"),
    "ci": ("([", "])"),
}


def _edge_label(t: Transition) -> str:
    return ", ".join(part for part in ("fan-out" if t.fan_out else "", edge_label(t)) if part)


def _placed(workflow: Workflow) -> list[Phase]:
    """The phases row by row, left to right (the layout's order)."""
    return [workflow.phase(n.key) for row in workflow_graph(workflow).rows() for n in row if n.kind != "terminal"]


def _phase_label(phase: Phase) -> str:
    detail = phase.provider if phase.type.value == "agent" else phase.type.value
    if phase.join is not None:
        detail = f"{detail}, join: {phase.join}"
    return f"{phase.key} ({detail})"


def render_mermaid(workflow: Workflow) -> str:
    """Mermaid flowchart text with guards shown on the edges."""
    lines = ["flowchart TD"]
    ids = {p.key: f"p_{p.key}" for p in workflow.phases}
    ids[END], ids[FAIL] = "end_", "fail_"
    for phase in _placed(workflow):
        left, right = _SHAPES[phase.type.value]
        lines.append(f'    {ids[phase.key]}{left}"{_mermaid_text(_phase_label(phase))}"{right}')
    targets = {target for p in workflow.phases for t in p.transitions for target in t.targets}
    if END in targets:
        lines.append('    end_(("$end"))')
    if FAIL in targets:
        lines.append('    fail_(("$fail"))')
    lines.append(f'    start_(("start")) --> {ids[workflow.start]}')
    for phase in workflow.phases:
        for t in phase.transitions:
            label = _edge_label(t)
            line = "==>" if t.fan_out else "-->"
            arrow = f' {line}|"{_mermaid_text(label)}"| ' if label else f" {line} "
            for target in t.targets:
                lines.append(f"    {ids[phase.key]}{arrow}{ids.get(target, target)}")
        if phase.on_conflict in ids:
            lines.append(f'    {ids[phase.key]} -.->|"on conflict"| {ids[phase.on_conflict]}')
    return "\n".join(lines) + "\n"


def _mermaid_text(text: str) -> str:
    return text.replace('"', "#quot;")


def render_dot(workflow: Workflow) -> str:
    """Graphviz DOT text with guards shown on the edges."""
    shapes = {
        "agent": "box",
        "command": "parallelogram",
        "approval": "diamond",
        "pull_request": "box3d",
        "ci": "hexagon",
    }
    lines = [f"digraph {json.dumps(workflow.key)} {{", "    rankdir=TB;"]
    for phase in _placed(workflow):
        lines.append(
            f"    {json.dumps(phase.key)} [shape={shapes[phase.type.value]}, label={json.dumps(_phase_label(phase))}];"
        )
    for row in workflow_graph(workflow).rows():
        if len(row) > 1:
            lines.append(f"    {{rank=same; {' '.join(json.dumps(n.key) + ';' for n in row)}}}")
    targets = {target for p in workflow.phases for t in p.transitions for target in t.targets}
    for reserved in (END, FAIL):
        if reserved in targets:
            lines.append(f"    {json.dumps(reserved)} [shape=doublecircle];")
    lines.append(f'    "$start" [shape=circle, label="start"];\n    "$start" -> {json.dumps(workflow.start)};')
    for phase in workflow.phases:
        for t in phase.transitions:
            label = _edge_label(t)
            attrs = f" [label={json.dumps(label)}{', style=bold' if t.fan_out else ''}]" if label else ""
            for target in t.targets:
                lines.append(f"    {json.dumps(phase.key)} -> {json.dumps(target)}{attrs};")
        if phase.on_conflict is not None:
            edge = f"{json.dumps(phase.key)} -> {json.dumps(phase.on_conflict)}"
            lines.append(f'    {edge} [label="on conflict", style=dashed];')
    lines.append("}")
    return "\n".join(lines) + "\n"
