"""``alphred status`` for a run with parallel branches (SPEC §8): each branch of every fan-out on its own
row — git branch, phases, what it does now — and the phases that run at this moment."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from alphred.views.item_groups import counted, item_base

if TYPE_CHECKING:
    from alphred.store import RunRecord, SqlRunStore
    from alphred.views.branch_status import BranchView
    from alphred.views.style import Painter
    from alphred.workflow import Workflow

MARKS = {
    "running": ("⟳", "cyan"),
    "merging": ("⟳", "cyan"),
    "queued": ("·", "dim"),
    "pending": ("·", "dim"),
    "waiting to merge": ("·", "dim"),
    "arrived": ("✓", "green"),
    "merged": ("✓", "green"),
    "conflicted": ("✗", "yellow"),
    "cancelled": ("■", "magenta"),
    "failed": ("✗", "red"),
    "not merged": ("■", "dim"),
    "skipped": ("–", "dim"),
}


def doing(view: BranchView) -> str:
    """What a branch does now, or how it ended, in a few words."""
    state = view.state
    if state == "running":
        return f"running {view.phase}"
    if state == "queued":
        return f"queued {view.phase}" if view.phase else "queued"
    if state == "arrived":
        return f"arrived at {view.join}" if view.join else "arrived"
    if state == "merging":
        return f"merging into the run branch for {view.join}"
    if state == "conflicted":
        resolver = f"; {view.resolver} resolves it" if view.resolver else ""
        return f"merge conflicted on {', '.join(view.conflicts)}{resolver}"
    if view.merges:
        return "merged " + ", ".join(sha[:12] for sha in view.merges)
    if state == "cancelled" and view.join_mode == "any":
        return "cancelled (join: any)"
    if state == "skipped":
        return "skipped (its guard was false)"
    return state


def branch_lines(
    store: SqlRunStore, record: RunRecord, workflow: Workflow, steps: list[Any], paint: Painter
) -> list[str]:
    """The ``branches:`` block of ``alphred status`` (no lines for a workflow without fan-outs)."""
    from alphred.views.branch_status import run_branch_views, stored_state
    from alphred.views.style import table

    state = stored_state(store, record.id, workflow)
    views = run_branch_views(store, record, workflow, state, steps)
    if not views:
        return []
    lines = ["branches:"]
    groups: dict[str, list[BranchView]] = {}
    for view in views:
        groups.setdefault(view.fan_out, []).append(view)
    for source, members in groups.items():
        first = members[0]
        join = f" → {first.join}" if first.join else ""
        mode = f" (join: {first.join_mode})" if first.join_mode else ""
        lines.append(f"  fan-out of {source}{join}{mode}")
        rows: list[tuple[str, ...]] = [("BRANCH", "GIT BRANCH", "PHASES", "NOW")]
        marks: list[str] = []
        items = [view for view in members if item_base(view.head) is not None]
        if items:  # a for_each: its items in one row (`implement ×12 ... 9 merged, 2 running, 1 failed`)
            rows.append(item_row(items))
            worst = next(
                (w for w in ("failed", "conflicted", "running", "merging") if any(v.state == w for v in items)), None
            )
            mark, style = MARKS.get(worst or items[0].state, ("·", ""))
            marks.append(paint(mark, style))
        for view in members:
            if view in items:
                continue
            rows.append((view.head, view.branch, ", ".join(view.phases), doing(view)))
            mark, style = MARKS.get(view.state, ("·", ""))
            marks.append(paint(mark, style))
        shown = table(rows)
        lines.append(f"      {shown[0]}")
        lines += [f"    {mark} {line}" for mark, line in zip(marks, shown[1:], strict=True)]
    running = running_now(record, state)
    if running:
        lines.append("running now: " + ", ".join(running))
    return lines


def item_row(items: list[BranchView]) -> tuple[str, str, str, str]:
    """One row for every item branch of a for_each (SPEC §13): count, git branches, phases, how they stand."""
    first = items[0]
    base = item_base(first.head) or first.head
    phases = ", ".join(item_base(k) or k for k in first.phases)
    now = counted([view.state for view in items])
    failed = [view.head for view in items if view.state == "failed"]
    if failed:
        now += f" ({', '.join(failed)})"
    return f"{base} ×{len(items)}", first.branch.rpartition(".")[0] + f".{base}-*", phases, now


def running_now(record: RunRecord, state: Any) -> list[str]:
    """The phase attempts that run at this moment (``phase #attempt [branch head]``), from the engine state."""
    if state is None or record.status.value != "running":
        return []
    found: list[str] = []
    for lane in state.lanes:
        if lane.current is not None:
            found.append(f"{lane.current} #{state.phase(lane.current).attempt} [{lane.head}]")
    if state.current is not None and all(lane.current != state.current for lane in state.lanes):
        found.append(f"{state.current} #{state.phase(state.current).attempt}")
    return found
