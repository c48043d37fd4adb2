"""Render a workflow's phases and transitions as Mermaid or Graphviz DOT text."""

from __future__ import annotations

import json

from .model import END, FAIL, Phase, Transition, Workflow

_SHAPES = {"agent": ("[", "]"), "command": ("[/", "/]"), "approval": ("{", "}")}


def _edge_label(t: Transition) -> str:
    parts = [t.when] if t.when else []
    if t.max is not None:
        parts.append(f"max {t.max}")
    return ", ".join(parts)


def _phase_label(phase: Phase) -> str:
    detail = phase.provider if phase.type.value == "agent" else phase.type.value
    return f"{phase.key} ({detail})"


def render_mermaid(workflow: Workflow) -> str:
    """Mermaid flowchart text with guards shown on the edges."""
    lines = ["flowchart TD"]
    ids = {p.key: f"p_{p.key}" for p in workflow.phases}
    ids[END], ids[FAIL] = "end_", "fail_"
    for phase in workflow.phases:
        left, right = _SHAPES[phase.type.value]
        lines.append(f'    {ids[phase.key]}{left}"{_mermaid_text(_phase_label(phase))}"{right}')
    targets = {t.target for p in workflow.phases for t in p.transitions}
    if END in targets:
        lines.append('    end_(("$end"))')
    if FAIL in targets:
        lines.append('    fail_(("$fail"))')
    lines.append(f'    start_(("start")) --> {ids[workflow.start]}')
    for phase in workflow.phases:
        for t in phase.transitions:
            label = _edge_label(t)
            arrow = f' -->|"{_mermaid_text(label)}"| ' if label else " --> "
            lines.append(f"    {ids[phase.key]}{arrow}{ids.get(t.target, t.target)}")
    return "\n".join(lines) + "\n"


def _mermaid_text(text: str) -> str:
    return text.replace('"', "#quot;")


def render_dot(workflow: Workflow) -> str:
    """Graphviz DOT text with guards shown on the edges."""
    shapes = {"agent": "box", "command": "parallelogram", "approval": "diamond"}
    lines = [f"digraph {json.dumps(workflow.key)} {{", "    rankdir=TB;"]
    for phase in workflow.phases:
        lines.append(
            f"    {json.dumps(phase.key)} [shape={shapes[phase.type.value]}, label={json.dumps(_phase_label(phase))}];"
        )
    targets = {t.target for p in workflow.phases for t in p.transitions}
    for reserved in (END, FAIL):
        if reserved in targets:
            lines.append(f"    {json.dumps(reserved)} [shape=doublecircle];")
    lines.append(f'    "$start" [shape=circle, label="start"];\n    "$start" -> {json.dumps(workflow.start)};')
    for phase in workflow.phases:
        for t in phase.transitions:
            label = _edge_label(t)
            attrs = f" [label={json.dumps(label)}]" if label else ""
            lines.append(f"    {json.dumps(phase.key)} -> {json.dumps(t.target)}{attrs};")
    lines.append("}")
    return "\n".join(lines) + "\n"
