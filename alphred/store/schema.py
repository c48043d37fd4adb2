"""The tables of ``tables.py`` as SQLAlchemy Core ``Table`` objects, without SQLModel (generated).

Written by ``python -m alphred.store.schemagen`` from the SQLModel classes of ``tables.py``, the one
definition of the schema: do not edit by hand. The store's read and run paths import these (no pydantic,
no ORM); a test checks that they match ``tables.py`` exactly.
"""

from __future__ import annotations

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

METADATA = MetaData()

SCHEMA_MIGRATIONS = Table(
    "schema_migrations",
    METADATA,
    Column("version", Integer, primary_key=True, autoincrement=False),
    Column("name", String(200), nullable=False),
    Column("applied_at", UtcDateTime(), nullable=False, default=utcnow),
)

WORKFLOW_TREES = Table(
    "workflow_trees",
    METADATA,
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

PROMPT_TEMPLATES = Table(
    "prompt_templates",
    METADATA,
    Column("id", Integer, primary_key=True),
    Column("template_key", String(200), nullable=False),
    Column("version", Integer, nullable=False),
    Column("content", Text, nullable=False),
    Column("content_type", String(32), nullable=False, default="text"),
    Column("created_at", UtcDateTime(), nullable=False, default=utcnow),
    UniqueConstraint("template_key", "version", name="uq_prompt_templates_key_version"),
)

GUARD_DEFINITIONS = Table(
    "guard_definitions",
    METADATA,
    Column("id", Integer, primary_key=True),
    Column("guard_key", String(200), nullable=False),
    Column("version", Integer, nullable=False),
    Column("expression", Text, nullable=False),
    Column("created_at", UtcDateTime(), nullable=False, default=utcnow),
    UniqueConstraint("guard_key", "version", name="uq_guard_definitions_key_version"),
)

REPOSITORIES = Table(
    "repositories",
    METADATA,
    Column("id", Integer, primary_key=True),
    Column("name", String(200), nullable=False, unique=True),
    Column("path", Text),
    Column("remote_url", Text),
    Column("branch_template", Text),
    Column("clone_status", String(16), nullable=False, default="cloned"),
    Column("created_at", UtcDateTime(), nullable=False, default=utcnow),
    CheckConstraint("clone_status IN ('pending', 'cloning', 'cloned', 'failed')", name="ck_repositories_clone_status"),
)

TREE_NODES = Table(
    "tree_nodes",
    METADATA,
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
        "node_type IN ('agent', 'command', 'approval', 'pull_request', 'ci', 'workflow')",
        name="ck_tree_nodes_node_type",
    ),
    CheckConstraint("node_type <> 'agent' OR provider IS NOT NULL", name="ck_tree_nodes_agent_provider"),
    CheckConstraint("sequence_index >= 0", name="ck_tree_nodes_sequence_index"),
    CheckConstraint("max_retries >= 0", name="ck_tree_nodes_max_retries"),
    CheckConstraint("max_visits >= 1", name="ck_tree_nodes_max_visits"),
)

TREE_EDGES = Table(
    "tree_edges",
    METADATA,
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
    CheckConstraint("target_kind IN ('node', 'end', 'fail')", name="ck_tree_edges_target_kind"),
    CheckConstraint("(target_kind = 'node') = (target_node_id IS NOT NULL)", name="ck_tree_edges_target_node"),
    CheckConstraint("max_traversals IS NULL OR max_traversals >= 1", name="ck_tree_edges_max_traversals"),
)

WORKFLOW_RUNS = Table(
    "workflow_runs",
    METADATA,
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
        "status IN ('pending', 'running', 'paused', 'completed', 'failed', 'cancelled')", name="ck_workflow_runs_status"
    ),
    CheckConstraint("tokens >= 0 AND steps >= 0 AND cost_usd >= 0", name="ck_workflow_runs_usage"),
    Index("ix_workflow_runs_created_at", "created_at"),
    Index("ix_workflow_runs_parent", "parent_run_id", "parent_step", unique=True),
    Index("ix_workflow_runs_queue", "status", "priority", "id"),
    Index("ix_workflow_runs_status", "status"),
    Index("ix_workflow_runs_wake", "status", "wake_at"),
    sqlite_autoincrement=True,
)

WORKERS = Table(
    "workers",
    METADATA,
    Column("id", String(200), primary_key=True),
    Column("host", String(200), nullable=False),
    Column("pid", Integer, nullable=False),
    Column("capabilities", JSON(none_as_null=True)),
    Column("started_at", UtcDateTime(), nullable=False, default=utcnow),
    Column("heartbeat_at", UtcDateTime(), nullable=False, default=utcnow),
    Column("paused", JSON(none_as_null=True)),
)

RUN_NODES = Table(
    "run_nodes",
    METADATA,
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
        "status IN ('pending', 'running', 'completed', 'failed', 'skipped', 'cancelled')", name="ck_run_nodes_status"
    ),
    CheckConstraint("attempt >= 0 AND visits >= 0 AND tokens >= 0", name="ck_run_nodes_counters"),
)

ROUTING_DECISIONS = Table(
    "routing_decisions",
    METADATA,
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

PHASE_ARTIFACTS = Table(
    "phase_artifacts",
    METADATA,
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

RUN_NODE_DIAGNOSTICS = Table(
    "run_node_diagnostics",
    METADATA,
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
        "outcome IN ('completed', 'failed', 'interrupted', 'cancelled')", name="ck_run_node_diagnostics_outcome"
    ),
    CheckConstraint("attempt >= 0", name="ck_run_node_diagnostics_attempt"),
    Index("ix_run_node_diagnostics_run", "run_id", "id"),
)

RUN_NODE_STREAM_EVENTS = Table(
    "run_node_stream_events",
    METADATA,
    Column("id", Integer, primary_key=True),
    Column("workflow_run_id", Integer, nullable=False),
    Column("run_node_id", Integer, nullable=False),
    Column("attempt", Integer, nullable=False),
    Column("sequence", Integer, nullable=False),
    Column("event_type", String(16), nullable=False),
    Column("timestamp", UtcDateTime(), nullable=False, default=utcnow),
    Column("content", Text),
    Column("metadata", JSON(none_as_null=True)),
    ForeignKeyConstraint(["workflow_run_id", "run_node_id"], ["run_nodes.run_id", "run_nodes.id"], ondelete="CASCADE"),
    UniqueConstraint("run_node_id", "attempt", "sequence", name="uq_run_node_stream_events_sequence"),
    CheckConstraint(
        "event_type IN ('system', 'assistant', 'tool_use', 'tool_result', 'usage', 'result')",
        name="ck_run_node_stream_events_type",
    ),
    Index("ix_run_node_stream_events_run", "workflow_run_id", "id"),
)

RUN_PROCESSES = Table(
    "run_processes",
    METADATA,
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

FILE_BLOBS = Table(
    "file_blobs",
    METADATA,
    Column("sha256", String(64), primary_key=True),
    Column("size", BigInteger, nullable=False),
    Column("created_at", UtcDateTime(), nullable=False, default=utcnow),
    CheckConstraint("size >= 0", name="ck_file_blobs_size"),
)

FILE_CHUNKS = Table(
    "file_chunks",
    METADATA,
    Column("sha256", String(64), ForeignKey("file_blobs.sha256", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("data", LargeBinary, nullable=False),
)

RUN_FILES = Table(
    "run_files",
    METADATA,
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

RUN_MEMORIES = Table(
    "run_memories",
    METADATA,
    Column("run_id", Integer, ForeignKey("workflow_runs.id", ondelete="CASCADE"), primary_key=True),
    Column("repository", Text, nullable=False),
    Column("tree_key", String(64), nullable=False),
    Column("name", String(100), nullable=False),
    Column("restored_from", Integer),
)

MEMORIES = Table(
    "memories",
    METADATA,
    Column("id", Integer, primary_key=True),
    Column("repository", Text, nullable=False),
    Column("tree_key", String(64), nullable=False),
    Column("name", String(100), nullable=False),
    Column("run_id", Integer),
    Column("saved_at", UtcDateTime(), nullable=False, default=utcnow),
    UniqueConstraint("repository", "tree_key", "name", name="uq_memories_key"),
)

MEMORY_FILES = Table(
    "memory_files",
    METADATA,
    Column("id", Integer, primary_key=True),
    Column("memory_id", Integer, ForeignKey("memories.id", ondelete="CASCADE"), nullable=False),
    Column("path", Text, nullable=False),
    Column("sha256", String(64), ForeignKey("file_blobs.sha256"), nullable=False),
    Column("size", BigInteger, nullable=False),
    Column("mode", Integer, nullable=False, default=420),
    UniqueConstraint("memory_id", "path", name="uq_memory_files_path"),
)

TOPOLOGY_TABLES = (
    WORKFLOW_TREES,
    PROMPT_TEMPLATES,
    GUARD_DEFINITIONS,
    REPOSITORIES,
    TREE_NODES,
    TREE_EDGES,
)
RUN_TABLES = (
    WORKFLOW_RUNS,
    RUN_NODES,
    ROUTING_DECISIONS,
    PHASE_ARTIFACTS,
    RUN_NODE_DIAGNOSTICS,
    RUN_NODE_STREAM_EVENTS,
)
FILE_TABLES = (
    FILE_BLOBS,
    FILE_CHUNKS,
    RUN_FILES,
    RUN_MEMORIES,
    MEMORIES,
    MEMORY_FILES,
)
QUEUE_COLUMNS = ("priority", "requires", "queued", "request", "repo_name", "repo_url", "repo_root")
