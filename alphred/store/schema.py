"""The tables of ``tables.py`` as SQLAlchemy Core ``Table`` objects, without SQLModel (generated).

Written by ``python -m alphred.store.schemagen`` from the SQLModel classes of ``tables.py``, the one
definition of the schema: do not edit by hand. The store's read and run paths import these (no pydantic,
no ORM); a test checks that they match ``tables.py`` exactly.

Each table is built when first asked for (``schema.RUN_NODES``, ``from alphred.store.schema import
RUN_NODES``), with the tables its foreign keys name: building the 21 tables costs ~53 M instructions
(issue 29), and a run's start uses fewer than half of them. ``METADATA`` and the groups build every table
they hold.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
)

from alphred.store.columns import UtcDateTime, utcnow

_METADATA = MetaData()
_BUILDING = threading.RLock()  # one thread builds a table; a second ``Table(name, ...)`` would be an error


def __getattr__(name: str) -> Any:
    """A table, a group of tables or ``METADATA`` (every table), built when first asked for and kept."""
    with _BUILDING:
        if name in _TABLES:
            return _table(name)
        if name in _GROUPS:
            value: Any = tuple(_table(each) for each in _GROUPS[name])
        elif name == "METADATA":
            for each in _TABLES:
                _table(each)
            value = _METADATA
        else:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        globals()[name] = value
        return value


def _table(name: str) -> Table:
    """The table ``name``, built (then the tables it refers to: SQLAlchemy links a foreign key whichever of
    its two tables comes first) unless it was already."""
    found: Table | None = globals().get(name)
    if found is None:
        found = globals()[name] = _TABLES[name]()
        for other in _REFERS.get(name, ()):
            _table(other)
    return found


def _build_schema_migrations() -> Table:
    return Table(
        "schema_migrations",
        _METADATA,
        Column("version", Integer, primary_key=True, autoincrement=False),
        Column("name", String(200), nullable=False),
        Column("applied_at", UtcDateTime(), nullable=False, default=utcnow),
    )


def _build_workflow_trees() -> Table:
    return Table(
        "workflow_trees",
        _METADATA,
        Column("id", Integer, primary_key=True),
        Column("tree_key", String(64), nullable=False),
        Column("version", Integer, nullable=False),
        Column("name", Text),
        Column("description", Text),
        Column("content_hash", String(128), nullable=False),
        Column("start_node_key", String(64), nullable=False),
        Column("source_path", Text),
        Column("definition", JSON(none_as_null=True)),
        Column("created_at", UtcDateTime(), nullable=False, default=utcnow),
        UniqueConstraint("tree_key", "version", name="uq_workflow_trees_key_version"),
        CheckConstraint("version >= 1", name="ck_workflow_trees_version"),
        Index("ix_workflow_trees_key_hash", "tree_key", "content_hash"),
    )


def _build_prompt_templates() -> Table:
    return Table(
        "prompt_templates",
        _METADATA,
        Column("id", Integer, primary_key=True),
        Column("template_key", String(200), nullable=False),
        Column("version", Integer, nullable=False),
        Column("content", Text, nullable=False),
        Column("content_type", String(32), nullable=False, default="text"),
        Column("created_at", UtcDateTime(), nullable=False, default=utcnow),
        UniqueConstraint("template_key", "version", name="uq_prompt_templates_key_version"),
    )


def _build_guard_definitions() -> Table:
    return Table(
        "guard_definitions",
        _METADATA,
        Column("id", Integer, primary_key=True),
        Column("guard_key", String(200), nullable=False),
        Column("version", Integer, nullable=False),
        Column("expression", Text, nullable=False),
        Column("created_at", UtcDateTime(), nullable=False, default=utcnow),
        UniqueConstraint("guard_key", "version", name="uq_guard_definitions_key_version"),
    )


def _build_repositories() -> Table:
    return Table(
        "repositories",
        _METADATA,
        Column("id", Integer, primary_key=True),
        Column("name", String(200), nullable=False, unique=True),
        Column("path", Text),
        Column("remote_url", Text),
        Column("branch_template", Text),
        Column("clone_status", String(16), nullable=False, default="cloned"),
        Column("created_at", UtcDateTime(), nullable=False, default=utcnow),
        CheckConstraint(
            "clone_status IN ('pending', 'cloning', 'cloned', 'failed')", name="ck_repositories_clone_status"
        ),
    )


def _build_tree_nodes() -> Table:
    return Table(
        "tree_nodes",
        _METADATA,
        Column("id", Integer, primary_key=True),
        Column("tree_id", Integer, ForeignKey("workflow_trees.id", ondelete="CASCADE"), nullable=False),
        Column("node_key", String(64), nullable=False),
        Column("sequence_index", Integer, nullable=False),
        Column("node_type", String(16), nullable=False),
        Column("provider", String(100)),
        Column("model", String(200)),
        Column("prompt_template_id", Integer, ForeignKey("prompt_templates.id", ondelete="RESTRICT")),
        Column("max_retries", Integer, nullable=False, default=0),
        Column("max_visits", Integer, nullable=False, default=10),
        Column("config", JSON(none_as_null=True)),
        Column("created_at", UtcDateTime(), nullable=False, default=utcnow),
        UniqueConstraint("tree_id", "node_key", name="uq_tree_nodes_tree_key"),
        UniqueConstraint("tree_id", "sequence_index", name="uq_tree_nodes_tree_sequence"),
        CheckConstraint(
            "node_type = 'agent' OR node_type = 'command' OR node_type = 'approval' OR node_type = 'pull_request' OR node_type = 'ci' OR node_type = 'workflow'",
            name="ck_tree_nodes_node_type",
        ),
        CheckConstraint("node_type <> 'agent' OR provider IS NOT NULL", name="ck_tree_nodes_agent_provider"),
        CheckConstraint("sequence_index >= 0", name="ck_tree_nodes_sequence_index"),
        CheckConstraint("max_retries >= 0", name="ck_tree_nodes_max_retries"),
        CheckConstraint("max_visits >= 1", name="ck_tree_nodes_max_visits"),
    )


def _build_tree_edges() -> Table:
    return Table(
        "tree_edges",
        _METADATA,
        Column("id", Integer, primary_key=True),
        Column("tree_id", Integer, ForeignKey("workflow_trees.id", ondelete="CASCADE"), nullable=False),
        Column("source_node_id", Integer, ForeignKey("tree_nodes.id", ondelete="CASCADE"), nullable=False),
        Column("target_node_id", Integer, ForeignKey("tree_nodes.id", ondelete="CASCADE")),
        Column("target_kind", String(8), nullable=False),
        Column("priority", Integer, nullable=False),
        Column("auto", Boolean, nullable=False),
        Column("guard_definition_id", Integer, ForeignKey("guard_definitions.id", ondelete="RESTRICT")),
        Column("max_traversals", Integer),
        Column("created_at", UtcDateTime(), nullable=False, default=utcnow),
        UniqueConstraint("source_node_id", "priority", name="uq_tree_edges_source_priority"),
        CheckConstraint(
            "(auto AND guard_definition_id IS NULL) OR (NOT auto AND guard_definition_id IS NOT NULL)",
            name="ck_tree_edges_auto_or_guarded",
        ),
        CheckConstraint(
            "target_kind = 'node' OR target_kind = 'end' OR target_kind = 'fail'", name="ck_tree_edges_target_kind"
        ),
        CheckConstraint("(target_kind = 'node') = (target_node_id IS NOT NULL)", name="ck_tree_edges_target_node"),
        CheckConstraint("max_traversals IS NULL OR max_traversals >= 1", name="ck_tree_edges_max_traversals"),
    )


def _build_workflow_runs() -> Table:
    return Table(
        "workflow_runs",
        _METADATA,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("tree_id", Integer, ForeignKey("workflow_trees.id", ondelete="RESTRICT"), nullable=False),
        Column("status", String(16), nullable=False),
        Column("reason", Text),
        Column("inputs", JSON(none_as_null=True)),
        Column("branch", Text),
        Column("base_sha", String(64)),
        Column("head_sha", String(64)),
        Column("base_ref", Text),
        Column("worktree_path", Text),
        Column("repo_path", Text),
        Column("pr_url", Text),
        Column("engine_state", JSON(none_as_null=True)),
        Column("tokens", Integer, nullable=False, default=0),
        Column("cost_usd", Float, nullable=False, default=0.0),
        Column("steps", Integer, nullable=False, default=0),
        Column("pause_requested", Boolean, nullable=False, default=False, server_default=false()),
        Column("cancel_requested", Boolean, nullable=False, default=False, server_default=false()),
        Column("lease_owner", String(200)),
        Column("lease_expires_at", UtcDateTime()),
        Column("created_at", UtcDateTime(), nullable=False, default=utcnow),
        Column("started_at", UtcDateTime()),
        Column("completed_at", UtcDateTime()),
        Column("updated_at", UtcDateTime(), nullable=False, default=utcnow),
        Column("priority", Integer, nullable=False, default=0),
        Column("requires", JSON(none_as_null=True)),
        Column("queued", Boolean, nullable=False, default=False, server_default=false()),
        Column("request", JSON(none_as_null=True)),
        Column("repo_name", Text),
        Column("repo_url", Text),
        Column("repo_root", String(64)),
        Column("wake_at", UtcDateTime()),
        Column("parent_run_id", Integer, ForeignKey("workflow_runs.id", ondelete="CASCADE")),
        Column("parent_step", Text),
        CheckConstraint(
            "status = 'pending' OR status = 'running' OR status = 'paused' OR status = 'completed' OR status = 'failed' OR status = 'cancelled'",
            name="ck_workflow_runs_status",
        ),
        CheckConstraint("tokens >= 0 AND steps >= 0 AND cost_usd >= 0", name="ck_workflow_runs_usage"),
        Index("ix_workflow_runs_created_at", "created_at"),
        Index("ix_workflow_runs_parent", "parent_run_id", "parent_step", unique=True),
        Index("ix_workflow_runs_queue", "status", "priority", "id"),
        Index("ix_workflow_runs_status", "status"),
        Index("ix_workflow_runs_wake", "status", "wake_at"),
        sqlite_autoincrement=True,
    )


def _build_workers() -> Table:
    return Table(
        "workers",
        _METADATA,
        Column("id", String(200), primary_key=True),
        Column("host", String(200), nullable=False),
        Column("pid", Integer, nullable=False),
        Column("capabilities", JSON(none_as_null=True)),
        Column("started_at", UtcDateTime(), nullable=False, default=utcnow),
        Column("heartbeat_at", UtcDateTime(), nullable=False, default=utcnow),
        Column("paused", JSON(none_as_null=True)),
    )


def _build_run_nodes() -> Table:
    return Table(
        "run_nodes",
        _METADATA,
        Column("id", Integer, primary_key=True),
        Column("run_id", Integer, ForeignKey("workflow_runs.id", ondelete="CASCADE"), nullable=False),
        Column("tree_node_id", Integer, ForeignKey("tree_nodes.id", ondelete="RESTRICT"), nullable=False),
        Column("node_key", String(64), nullable=False),
        Column("sequence_index", Integer, nullable=False),
        Column("status", String(16), nullable=False),
        Column("attempt", Integer, nullable=False, default=0),
        Column("visits", Integer, nullable=False, default=0),
        Column("decision", String(100)),
        Column("exit_code", Integer),
        Column("tokens", Integer, nullable=False, default=0),
        Column("cost_usd", Float, nullable=False, default=0.0),
        Column("lease_owner", String(200)),
        Column("lease_expires_at", UtcDateTime()),
        Column("started_at", UtcDateTime()),
        Column("completed_at", UtcDateTime()),
        Column("updated_at", UtcDateTime(), nullable=False, default=utcnow),
        UniqueConstraint("run_id", "node_key", name="uq_run_nodes_run_key"),
        UniqueConstraint("run_id", "id", name="uq_run_nodes_run_id"),
        CheckConstraint(
            "status = 'pending' OR status = 'running' OR status = 'completed' OR status = 'failed' OR status = 'skipped' OR status = 'cancelled'",
            name="ck_run_nodes_status",
        ),
        CheckConstraint("attempt >= 0 AND visits >= 0 AND tokens >= 0", name="ck_run_nodes_counters"),
    )


def _build_routing_decisions() -> Table:
    return Table(
        "routing_decisions",
        _METADATA,
        Column("id", Integer, primary_key=True),
        Column("run_id", Integer, nullable=False),
        Column("run_node_id", Integer, nullable=False),
        Column("attempt", Integer, nullable=False),
        Column("decision", String(100)),
        Column("target", String(64), nullable=False),
        Column("priority", Integer),
        Column("edge_id", Integer, ForeignKey("tree_edges.id", ondelete="SET NULL")),
        Column("reason", Text),
        Column("created_at", UtcDateTime(), nullable=False, default=utcnow),
        Column("explanation", JSON(none_as_null=True)),
        ForeignKeyConstraint(["run_id", "run_node_id"], ["run_nodes.run_id", "run_nodes.id"], ondelete="CASCADE"),
        CheckConstraint("attempt >= 0", name="ck_routing_decisions_attempt"),
        Index("ix_routing_decisions_run", "run_id", "id"),
    )


def _build_phase_artifacts() -> Table:
    return Table(
        "phase_artifacts",
        _METADATA,
        Column("id", Integer, primary_key=True),
        Column("run_id", Integer, nullable=False),
        Column("run_node_id", Integer, nullable=False),
        Column("attempt", Integer, nullable=False),
        Column("kind", String(32), nullable=False),
        Column("content_text", Text),
        Column("content_json", JSON(none_as_null=True)),
        Column("sha256", String(64), nullable=False),
        Column("created_at", UtcDateTime(), nullable=False, default=utcnow),
        ForeignKeyConstraint(["run_id", "run_node_id"], ["run_nodes.run_id", "run_nodes.id"], ondelete="CASCADE"),
        CheckConstraint("attempt >= 0", name="ck_phase_artifacts_attempt"),
        CheckConstraint("kind <> ''", name="ck_phase_artifacts_kind"),
        Index("ix_phase_artifacts_node_kind_attempt", "run_node_id", "kind", "attempt"),
    )


def _build_run_node_diagnostics() -> Table:
    return Table(
        "run_node_diagnostics",
        _METADATA,
        Column("id", Integer, primary_key=True),
        Column("run_id", Integer, nullable=False),
        Column("run_node_id", Integer, nullable=False),
        Column("attempt", Integer, nullable=False),
        Column("outcome", String(16), nullable=False),
        Column("reason", Text),
        Column("error_code", String(100)),
        Column("duration_ms", Integer),
        Column("tokens", Integer, nullable=False, default=0),
        Column("cost_usd", Float, nullable=False, default=0.0),
        Column("event_count", Integer, nullable=False, default=0),
        Column("details", JSON(none_as_null=True)),
        Column("created_at", UtcDateTime(), nullable=False, default=utcnow),
        ForeignKeyConstraint(["run_id", "run_node_id"], ["run_nodes.run_id", "run_nodes.id"], ondelete="CASCADE"),
        UniqueConstraint("run_node_id", "attempt", name="uq_run_node_diagnostics_node_attempt"),
        CheckConstraint(
            "outcome = 'completed' OR outcome = 'failed' OR outcome = 'interrupted' OR outcome = 'cancelled'",
            name="ck_run_node_diagnostics_outcome",
        ),
        CheckConstraint("attempt >= 0", name="ck_run_node_diagnostics_attempt"),
        Index("ix_run_node_diagnostics_run", "run_id", "id"),
    )


def _build_run_node_stream_events() -> Table:
    return Table(
        "run_node_stream_events",
        _METADATA,
        Column("id", Integer, primary_key=True),
        Column("workflow_run_id", Integer, nullable=False),
        Column("run_node_id", Integer, nullable=False),
        Column("attempt", Integer, nullable=False),
        Column("sequence", Integer, nullable=False),
        Column("event_type", String(16), nullable=False),
        Column("timestamp", UtcDateTime(), nullable=False, default=utcnow),
        Column("content", Text),
        Column("metadata", JSON(none_as_null=True)),
        ForeignKeyConstraint(
            ["workflow_run_id", "run_node_id"], ["run_nodes.run_id", "run_nodes.id"], ondelete="CASCADE"
        ),
        UniqueConstraint("run_node_id", "attempt", "sequence", name="uq_run_node_stream_events_sequence"),
        CheckConstraint(
            "event_type = 'system' OR event_type = 'assistant' OR event_type = 'tool_use' OR event_type = 'tool_result' OR event_type = 'usage' OR event_type = 'result'",
            name="ck_run_node_stream_events_type",
        ),
        Index("ix_run_node_stream_events_run", "workflow_run_id", "id"),
    )


def _build_run_processes() -> Table:
    return Table(
        "run_processes",
        _METADATA,
        Column("id", Integer, primary_key=True),
        Column("run_id", Integer, ForeignKey("workflow_runs.id", ondelete="CASCADE"), nullable=False),
        Column("node_key", String(64), nullable=False),
        Column("attempt", Integer, nullable=False),
        Column("host", String(200), nullable=False),
        Column("pgid", Integer, nullable=False),
        Column("started", String(32)),
        Column("created_at", UtcDateTime(), nullable=False, default=utcnow),
        Index("ix_run_processes_run", "run_id"),
    )


def _build_file_blobs() -> Table:
    return Table(
        "file_blobs",
        _METADATA,
        Column("sha256", String(64), primary_key=True),
        Column("size", BigInteger, nullable=False),
        Column("created_at", UtcDateTime(), nullable=False, default=utcnow),
        CheckConstraint("size >= 0", name="ck_file_blobs_size"),
    )


def _build_file_chunks() -> Table:
    return Table(
        "file_chunks",
        _METADATA,
        Column("sha256", String(64), ForeignKey("file_blobs.sha256", ondelete="CASCADE"), primary_key=True),
        Column("seq", Integer, primary_key=True, autoincrement=False),
        Column("data", LargeBinary, nullable=False),
    )


def _build_run_files() -> Table:
    return Table(
        "run_files",
        _METADATA,
        Column("id", Integer, primary_key=True),
        Column("run_id", Integer, ForeignKey("workflow_runs.id", ondelete="CASCADE"), nullable=False),
        Column("area", String(16), nullable=False),
        Column("path", Text, nullable=False),
        Column("sha256", String(64), ForeignKey("file_blobs.sha256"), nullable=False),
        Column("size", BigInteger, nullable=False),
        Column("mode", Integer, nullable=False, default=420),
        Column("mtime_ns", BigInteger),
        Column("updated_at", UtcDateTime(), nullable=False, default=utcnow),
        UniqueConstraint("run_id", "area", "path", name="uq_run_files_path"),
        CheckConstraint("area IN ('artifacts', 'memory')", name="ck_run_files_area"),
    )


def _build_run_memories() -> Table:
    return Table(
        "run_memories",
        _METADATA,
        Column("run_id", Integer, ForeignKey("workflow_runs.id", ondelete="CASCADE"), primary_key=True),
        Column("repository", Text, nullable=False),
        Column("tree_key", String(64), nullable=False),
        Column("name", String(100), nullable=False),
        Column("restored_from", Integer),
    )


def _build_memories() -> Table:
    return Table(
        "memories",
        _METADATA,
        Column("id", Integer, primary_key=True),
        Column("repository", Text, nullable=False),
        Column("tree_key", String(64), nullable=False),
        Column("name", String(100), nullable=False),
        Column("run_id", Integer),
        Column("saved_at", UtcDateTime(), nullable=False, default=utcnow),
        UniqueConstraint("repository", "tree_key", "name", name="uq_memories_key"),
    )


def _build_memory_files() -> Table:
    return Table(
        "memory_files",
        _METADATA,
        Column("id", Integer, primary_key=True),
        Column("memory_id", Integer, ForeignKey("memories.id", ondelete="CASCADE"), nullable=False),
        Column("path", Text, nullable=False),
        Column("sha256", String(64), ForeignKey("file_blobs.sha256"), nullable=False),
        Column("size", BigInteger, nullable=False),
        Column("mode", Integer, nullable=False, default=420),
        UniqueConstraint("memory_id", "path", name="uq_memory_files_path"),
    )


_TABLES: dict[str, Callable[[], Table]] = {
    "SCHEMA_MIGRATIONS": _build_schema_migrations,
    "WORKFLOW_TREES": _build_workflow_trees,
    "PROMPT_TEMPLATES": _build_prompt_templates,
    "GUARD_DEFINITIONS": _build_guard_definitions,
    "REPOSITORIES": _build_repositories,
    "TREE_NODES": _build_tree_nodes,
    "TREE_EDGES": _build_tree_edges,
    "WORKFLOW_RUNS": _build_workflow_runs,
    "WORKERS": _build_workers,
    "RUN_NODES": _build_run_nodes,
    "ROUTING_DECISIONS": _build_routing_decisions,
    "PHASE_ARTIFACTS": _build_phase_artifacts,
    "RUN_NODE_DIAGNOSTICS": _build_run_node_diagnostics,
    "RUN_NODE_STREAM_EVENTS": _build_run_node_stream_events,
    "RUN_PROCESSES": _build_run_processes,
    "FILE_BLOBS": _build_file_blobs,
    "FILE_CHUNKS": _build_file_chunks,
    "RUN_FILES": _build_run_files,
    "RUN_MEMORIES": _build_run_memories,
    "MEMORIES": _build_memories,
    "MEMORY_FILES": _build_memory_files,
}
_REFERS = {
    "TREE_NODES": ("PROMPT_TEMPLATES", "WORKFLOW_TREES"),
    "TREE_EDGES": ("GUARD_DEFINITIONS", "TREE_NODES", "WORKFLOW_TREES"),
    "WORKFLOW_RUNS": ("WORKFLOW_TREES",),
    "RUN_NODES": ("TREE_NODES", "WORKFLOW_RUNS"),
    "ROUTING_DECISIONS": ("RUN_NODES", "TREE_EDGES"),
    "PHASE_ARTIFACTS": ("RUN_NODES",),
    "RUN_NODE_DIAGNOSTICS": ("RUN_NODES",),
    "RUN_NODE_STREAM_EVENTS": ("RUN_NODES",),
    "RUN_PROCESSES": ("WORKFLOW_RUNS",),
    "FILE_CHUNKS": ("FILE_BLOBS",),
    "RUN_FILES": ("FILE_BLOBS", "WORKFLOW_RUNS"),
    "RUN_MEMORIES": ("WORKFLOW_RUNS",),
    "MEMORY_FILES": ("FILE_BLOBS", "MEMORIES"),
}
_GROUPS = {
    "TOPOLOGY_TABLES": (
        "WORKFLOW_TREES",
        "PROMPT_TEMPLATES",
        "GUARD_DEFINITIONS",
        "REPOSITORIES",
        "TREE_NODES",
        "TREE_EDGES",
    ),
    "RUN_TABLES": (
        "WORKFLOW_RUNS",
        "RUN_NODES",
        "ROUTING_DECISIONS",
        "PHASE_ARTIFACTS",
        "RUN_NODE_DIAGNOSTICS",
        "RUN_NODE_STREAM_EVENTS",
    ),
    "FILE_TABLES": (
        "FILE_BLOBS",
        "FILE_CHUNKS",
        "RUN_FILES",
        "RUN_MEMORIES",
        "MEMORIES",
        "MEMORY_FILES",
    ),
}
QUEUE_COLUMNS = ("priority", "requires", "queued", "request", "repo_name", "repo_url", "repo_root")

if TYPE_CHECKING:
    METADATA: MetaData
    SCHEMA_MIGRATIONS: Table
    WORKFLOW_TREES: Table
    PROMPT_TEMPLATES: Table
    GUARD_DEFINITIONS: Table
    REPOSITORIES: Table
    TREE_NODES: Table
    TREE_EDGES: Table
    WORKFLOW_RUNS: Table
    WORKERS: Table
    RUN_NODES: Table
    ROUTING_DECISIONS: Table
    PHASE_ARTIFACTS: Table
    RUN_NODE_DIAGNOSTICS: Table
    RUN_NODE_STREAM_EVENTS: Table
    RUN_PROCESSES: Table
    FILE_BLOBS: Table
    FILE_CHUNKS: Table
    RUN_FILES: Table
    RUN_MEMORIES: Table
    MEMORIES: Table
    MEMORY_FILES: Table
    TOPOLOGY_TABLES: tuple[Table, ...]
    RUN_TABLES: tuple[Table, ...]
    FILE_TABLES: tuple[Table, ...]
