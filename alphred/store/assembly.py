"""Records assembled from rows that both read paths share: ``SqlRunStore`` (SQLAlchemy) and the light SQLite
reader of the read commands (``sqlite_reader.py``). A row here is any mapping by column name."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from alphred.store.enums import RunStatus, StepOutcome

if TYPE_CHECKING:  # the records reading hands out: loaded on first use, off a run's start path (issue 29)
    from alphred.store.read_records import RoutingRecord, RunSnapshot, StepRecord, WorkflowSource

RUN_CONVERT: dict[str, Callable[[Any], Any]] = {
    "status": RunStatus,
    "inputs": lambda value: dict(value or {}),
    "pause_requested": bool,
    "cancel_requested": bool,
    "requires": lambda value: tuple(value or ()),
    "queued": bool,
}
"""How a ``workflow_runs`` row's values become a ``RunRecord``'s (both read paths)."""


def routes_by_attempt(routes: Iterable[RoutingRecord]) -> dict[tuple[int, int], RoutingRecord]:
    """The routing decision of each ``(run_node_id, attempt)``: the latest one, a fan-out's branches joined
    by commas into one target."""
    found: dict[tuple[int, int], RoutingRecord] = {}
    for route in routes:
        key = (route.run_node_id, route.attempt)
        earlier = found.get(key)
        fan_out = earlier is not None and route.priority is not None and earlier.priority == route.priority
        if fan_out and earlier is not None and route.target not in earlier.target.split(","):
            route = replace(route, target=f"{earlier.target},{route.target}")  # a fan-out's branches
        found[key] = route
    return found


def children_by_parent(pairs: Iterable[tuple[int, int]], parents: set[int]) -> dict[int, list[int]]:
    """``(parent run id, child run id)`` pairs as each of ``parents``' child run ids, oldest first (SPEC §13)."""
    found: dict[int, list[int]] = {}
    for parent, child in pairs:
        if parent in parents:
            found.setdefault(parent, []).append(child)
    return {parent: sorted(children) for parent, children in found.items()}


def step_record(m: Any, routes: Mapping[tuple[int, int], RoutingRecord]) -> StepRecord:
    """A step from a diagnostics row joined with its phase's ``node_key``, and the routing of its attempt."""
    from alphred.store.read_records import StepRecord

    found = routes.get((m["run_node_id"], m["attempt"]))
    return StepRecord(
        phase=m["node_key"], attempt=m["attempt"], outcome=StepOutcome(m["outcome"]),
        decision=found.decision if found else None, next=found.target if found else None,
        reason=m["reason"], error_code=m["error_code"], duration_ms=m["duration_ms"],
        tokens=m["tokens"], cost_usd=m["cost_usd"], event_count=m["event_count"],
        created_at=m["created_at"], checks=_checks(m["details"]), provider=_provider(m["details"]),
    )  # fmt: skip


def _provider(details: Any) -> str | None:
    """The provider a diagnostics row's details name (SPEC §15), or None."""
    found = details.get("provider") if isinstance(details, dict) else None
    return found if isinstance(found, str) else None


def _checks(details: Any) -> tuple[Mapping[str, Any], ...]:
    """The checks kept in a diagnostics row's details (SPEC §9), or none."""
    checks = details.get("checks") if isinstance(details, dict) else None
    return tuple(c for c in checks if isinstance(c, dict)) if isinstance(checks, list) else ()


def run_snapshot(run_id: int, engine_state: Any, source_path: str | None, definition: Any) -> RunSnapshot:
    """A run's snapshot from its ``engine_state`` and its tree's ``source_path`` and ``definition``."""
    from alphred.store.read_records import RunSnapshot

    state = engine_state or {}
    source = (definition or {}).get("source") or {}
    return RunSnapshot(
        run_id=run_id,
        engine=state.get("engine"),
        runtime=dict(state.get("runtime") or {}),
        source_path=source_path,
        source_text=source.get("text"),
        source_files=dict(source.get("files") or {}),
    )


def workflow_source(tree_id: int, source_path: str | None, definition: Any) -> WorkflowSource:
    """The stored workflow file of a tree, from its ``source_path`` and ``definition``."""
    from alphred.store.read_records import WorkflowSource

    source = (definition or {}).get("source") or {}
    return WorkflowSource(
        tree_id=tree_id, source_path=source_path, text=source.get("text"), files=dict(source.get("files") or {})
    )


def worker_object(row: Any, runs: list[int], now: datetime, lost_after: float) -> dict[str, Any]:
    """SPEC §10's object of a registered worker (``lost`` when silent for ``lost_after`` seconds)."""
    heartbeat: datetime = row["heartbeat_at"]
    return {
        "id": row["id"],
        "host": row["host"],
        "pid": row["pid"],
        "started_at": row["started_at"].isoformat(),
        "heartbeat_at": heartbeat.isoformat(),
        "capabilities": list(row["capabilities"] or []),
        "runs": runs,
        "state": "live" if (now - heartbeat).total_seconds() <= lost_after else "lost",
        "paused": dict(_json(row, "paused") or {}),  # provider -> wake_at: its usage limit (SPEC §15)
    }


def _json(row: Any, name: str) -> Any:
    """A JSON column of ``row`` (read as text by ``sqlite3``, as a value by SQLAlchemy); None when absent."""
    try:
        value = row[name]
    except (KeyError, IndexError):
        return None
    if isinstance(value, str):
        import json

        return json.loads(value)
    return value
