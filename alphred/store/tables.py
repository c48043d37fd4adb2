"""SQLModel tables: the workflow topology and the run state of SPEC §5, with their SQL rules.

Constraint and index names are explicit and prefixed with their table (PostgreSQL shares one namespace
per schema for indexes). The same-tree rule of ``tree_edges`` is a trigger (see ``migrations``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    LargeBinary,
    String,
    Table,
    Text,
    UniqueConstraint,
)
from sqlmodel import Field, SQLModel

from alphred.store.columns import (
    fk_field,
    flag_field,
    float_field,
    in_list,
    int_field,
    json_field,
    text_field,
    ts_field,
)
from alphred.store.enums import EventType, NodeStatus, NodeType, RunStatus, StepOutcome, TargetKind

# --- topology -------------------------------------------------------------------------------------------


class SchemaMigration(SQLModel, table=True):
    """One applied schema migration."""

    __tablename__ = "schema_migrations"

    version: int = Field(sa_column=Column(Integer, primary_key=True, autoincrement=False))
    name: str = Field(sa_column=Column(String(200), nullable=False))
    applied_at: datetime = ts_field(default_now=True)


class WorkflowTree(SQLModel, table=True):
    """One compiled version of a workflow (its key, version and content hash)."""

    __tablename__ = "workflow_trees"
    __table_args__ = (
        UniqueConstraint("tree_key", "version", name="uq_workflow_trees_key_version"),
        CheckConstraint("version >= 1", name="ck_workflow_trees_version"),
        Index("ix_workflow_trees_key_hash", "tree_key", "content_hash"),
    )

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True))
    tree_key: str = Field(sa_column=Column(String(64), nullable=False))
    version: int = Field(sa_column=Column(Integer, nullable=False))
    name: str | None = text_field()
    description: str | None = text_field()
    content_hash: str = Field(sa_column=Column(String(128), nullable=False))
    start_node_key: str = Field(sa_column=Column(String(64), nullable=False))
    source_path: str | None = text_field()
    definition: dict[str, Any] | None = json_field()  # inputs, limits, pull_request
    created_at: datetime = ts_field(default_now=True)


class PromptTemplate(SQLModel, table=True):
    """The prompt text of one agent phase of one tree version."""

    __tablename__ = "prompt_templates"
    __table_args__ = (UniqueConstraint("template_key", "version", name="uq_prompt_templates_key_version"),)

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True))
    template_key: str = Field(sa_column=Column(String(200), nullable=False))
    version: int = Field(sa_column=Column(Integer, nullable=False))
    content: str = Field(sa_column=Column(Text, nullable=False))
    content_type: str = Field(default="text", sa_column=Column(String(32), nullable=False, default="text"))
    created_at: datetime = ts_field(default_now=True)


class GuardDefinition(SQLModel, table=True):
    """The guard expression text of one guarded transition of one tree version."""

    __tablename__ = "guard_definitions"
    __table_args__ = (UniqueConstraint("guard_key", "version", name="uq_guard_definitions_key_version"),)

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True))
    guard_key: str = Field(sa_column=Column(String(200), nullable=False))
    version: int = Field(sa_column=Column(Integer, nullable=False))
    expression: str = Field(sa_column=Column(Text, nullable=False))
    created_at: datetime = ts_field(default_now=True)


class Repository(SQLModel, table=True):
    """A git repository runs can be made in."""

    __tablename__ = "repositories"
    __table_args__ = (
        CheckConstraint(
            "clone_status IN ('pending', 'cloning', 'cloned', 'failed')", name="ck_repositories_clone_status"
        ),
    )

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True))
    name: str = Field(sa_column=Column(String(200), nullable=False, unique=True))
    path: str | None = text_field()
    remote_url: str | None = text_field()
    branch_template: str | None = text_field()
    clone_status: str = Field(default="cloned", sa_column=Column(String(16), nullable=False, default="cloned"))
    created_at: datetime = ts_field(default_now=True)


class TreeNode(SQLModel, table=True):
    """One phase of a compiled workflow tree."""

    __tablename__ = "tree_nodes"
    __table_args__ = (
        UniqueConstraint("tree_id", "node_key", name="uq_tree_nodes_tree_key"),
        UniqueConstraint("tree_id", "sequence_index", name="uq_tree_nodes_tree_sequence"),
        CheckConstraint(in_list("node_type", NodeType), name="ck_tree_nodes_node_type"),
        CheckConstraint("node_type <> 'agent' OR provider IS NOT NULL", name="ck_tree_nodes_agent_provider"),
        CheckConstraint("sequence_index >= 0", name="ck_tree_nodes_sequence_index"),
        CheckConstraint("max_retries >= 0", name="ck_tree_nodes_max_retries"),
        CheckConstraint("max_visits >= 1", name="ck_tree_nodes_max_visits"),
    )

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True))
    tree_id: int = Field(sa_column=Column(Integer, ForeignKey("workflow_trees.id", ondelete="CASCADE"), nullable=False))
    node_key: str = Field(sa_column=Column(String(64), nullable=False))
    sequence_index: int = Field(sa_column=Column(Integer, nullable=False))
    node_type: str = Field(sa_column=Column(String(16), nullable=False))
    provider: str | None = Field(default=None, sa_column=Column(String(100)))
    model: str | None = Field(default=None, sa_column=Column(String(200)))
    prompt_template_id: int | None = fk_field("prompt_templates.id", "RESTRICT")
    max_retries: int = int_field(0)
    max_visits: int = int_field(10)
    config: dict[str, Any] | None = json_field()
    created_at: datetime = ts_field(default_now=True)


class TreeEdge(SQLModel, table=True):
    """One transition of a compiled tree; the target is a node or a reserved target (``$end``/``$fail``)."""

    __tablename__ = "tree_edges"
    __table_args__ = (
        UniqueConstraint("source_node_id", "priority", name="uq_tree_edges_source_priority"),
        CheckConstraint(
            "(auto AND guard_definition_id IS NULL) OR (NOT auto AND guard_definition_id IS NOT NULL)",
            name="ck_tree_edges_auto_or_guarded",
        ),
        CheckConstraint(in_list("target_kind", TargetKind), name="ck_tree_edges_target_kind"),
        CheckConstraint("(target_kind = 'node') = (target_node_id IS NOT NULL)", name="ck_tree_edges_target_node"),
        CheckConstraint("max_traversals IS NULL OR max_traversals >= 1", name="ck_tree_edges_max_traversals"),
    )

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True))
    tree_id: int = Field(sa_column=Column(Integer, ForeignKey("workflow_trees.id", ondelete="CASCADE"), nullable=False))
    source_node_id: int = fk_field("tree_nodes.id", "CASCADE", nullable=False)
    target_node_id: int | None = fk_field("tree_nodes.id", "CASCADE")
    target_kind: str = Field(sa_column=Column(String(8), nullable=False))
    priority: int = Field(sa_column=Column(Integer, nullable=False))
    auto: bool = Field(sa_column=Column(Boolean, nullable=False))
    guard_definition_id: int | None = fk_field("guard_definitions.id", "RESTRICT")
    max_traversals: int | None = Field(default=None, sa_column=Column(Integer))
    created_at: datetime = ts_field(default_now=True)


# --- runs -----------------------------------------------------------------------------------------------


def _run_node_fk(run_column: str = "run_id") -> ForeignKeyConstraint:
    """Composite foreign key (run, run node) -> run_nodes(run_id, id): a child row's node is of its run."""
    return ForeignKeyConstraint([run_column, "run_node_id"], ["run_nodes.run_id", "run_nodes.id"], ondelete="CASCADE")


class WorkflowRun(SQLModel, table=True):
    """One run of one tree version; ``id`` is the run id users type."""

    __tablename__ = "workflow_runs"
    __table_args__ = (
        CheckConstraint(in_list("status", RunStatus), name="ck_workflow_runs_status"),
        CheckConstraint("tokens >= 0 AND steps >= 0 AND cost_usd >= 0", name="ck_workflow_runs_usage"),
        Index("ix_workflow_runs_status", "status"),
        Index("ix_workflow_runs_created_at", "created_at"),
        Index("ix_workflow_runs_queue", "status", "priority", "id"),  # the workers' claimable-runs query
        Index("ix_workflow_runs_wake", "status", "wake_at"),  # runs waiting out a usage limit (SPEC §15)
        # SPEC §13: one child run per parent step (found again, never made twice, on resume)
        Index("ix_workflow_runs_parent", "parent_run_id", "parent_step", unique=True),
        {"sqlite_autoincrement": True},  # run ids are never reused, even after a delete
    )

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True, autoincrement=True))
    tree_id: int = fk_field("workflow_trees.id", "RESTRICT", nullable=False)
    status: str = Field(default=RunStatus.PENDING.value, sa_column=Column(String(16), nullable=False))
    reason: str | None = text_field()
    inputs: dict[str, Any] | None = json_field()
    branch: str | None = text_field()
    base_sha: str | None = Field(default=None, sa_column=Column(String(64)))
    head_sha: str | None = Field(default=None, sa_column=Column(String(64)))
    base_ref: str | None = text_field()
    worktree_path: str | None = text_field()
    repo_path: str | None = text_field()
    pr_url: str | None = text_field()
    engine_state: dict[str, Any] | None = json_field()  # the pure engine's RunState as JSON, for resume
    tokens: int = int_field(0)
    cost_usd: float = float_field(0.0)
    steps: int = int_field(0)
    pause_requested: bool = flag_field()
    cancel_requested: bool = flag_field()
    lease_owner: str | None = Field(default=None, sa_column=Column(String(200)))
    lease_expires_at: datetime | None = ts_field()
    created_at: datetime = ts_field(default_now=True)
    started_at: datetime | None = ts_field()
    completed_at: datetime | None = ts_field()
    updated_at: datetime = ts_field(default_now=True)
    # SPEC §10 (migration 3): the queue
    priority: int = int_field(0)
    requires: list[str] | None = json_field()  # providers and labels a worker must offer
    queued: bool = flag_field()  # left to the workers (submit, --detach, a worker's interrupted run)
    request: dict[str, Any] | None = json_field()  # a detached approve/reject/retry/resume, for a worker
    repo_name: str | None = text_field()  # repository identity: registered name, origin URL, root commit
    repo_url: str | None = text_field()
    repo_root: str | None = Field(default=None, sa_column=Column(String(64)))
    # SPEC §16 (migration 4): when a run waiting for CI looks at the checks again; SPEC §15: when a run
    # paused by a usage limit goes on (workers claim it only after then)
    wake_at: datetime | None = ts_field()
    # SPEC §13 (migration 8): a sub-workflow's run names the run and the step (``<phase>#<visit>.<attempt>``)
    # of the workflow phase that runs it
    parent_run_id: int | None = fk_field("workflow_runs.id", "CASCADE")
    parent_step: str | None = text_field()


QUEUE_COLUMNS = ("priority", "requires", "queued", "request", "repo_name", "repo_url", "repo_root")
"""Columns of ``workflow_runs`` that migration 3 adds to an older database."""


class Worker(SQLModel, table=True):
    """A registered ``alphred worker`` process (SPEC §10): what it offers, when it last beat."""

    __tablename__ = "workers"

    id: str = Field(sa_column=Column(String(200), primary_key=True))  # its lease owner string
    host: str = Field(sa_column=Column(String(200), nullable=False))
    pid: int = Field(sa_column=Column(Integer, nullable=False))
    capabilities: list[str] | None = json_field()
    started_at: datetime = ts_field(default_now=True)
    heartbeat_at: datetime = ts_field(default_now=True)
    # SPEC §15 (migration 6): providers this worker claims no run for until their usage limit resets
    paused: dict[str, Any] | None = json_field()  # provider -> wake_at (ISO 8601, UTC)


class RunNode(SQLModel, table=True):
    """The state of one phase within one run."""

    __tablename__ = "run_nodes"
    __table_args__ = (
        UniqueConstraint("run_id", "node_key", name="uq_run_nodes_run_key"),
        UniqueConstraint("run_id", "id", name="uq_run_nodes_run_id"),
        CheckConstraint(in_list("status", NodeStatus), name="ck_run_nodes_status"),
        CheckConstraint("attempt >= 0 AND visits >= 0 AND tokens >= 0", name="ck_run_nodes_counters"),
    )

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True))
    run_id: int = Field(sa_column=Column(Integer, ForeignKey("workflow_runs.id", ondelete="CASCADE"), nullable=False))
    tree_node_id: int = fk_field("tree_nodes.id", "RESTRICT", nullable=False)
    node_key: str = Field(sa_column=Column(String(64), nullable=False))
    sequence_index: int = Field(sa_column=Column(Integer, nullable=False))
    status: str = Field(default=NodeStatus.PENDING.value, sa_column=Column(String(16), nullable=False))
    attempt: int = int_field(0)
    visits: int = int_field(0)
    decision: str | None = Field(default=None, sa_column=Column(String(100)))
    exit_code: int | None = Field(default=None, sa_column=Column(Integer))
    tokens: int = int_field(0)
    cost_usd: float = float_field(0.0)
    lease_owner: str | None = Field(default=None, sa_column=Column(String(200)))
    lease_expires_at: datetime | None = ts_field()
    started_at: datetime | None = ts_field()
    completed_at: datetime | None = ts_field()
    updated_at: datetime = ts_field(default_now=True)


class RoutingDecision(SQLModel, table=True):
    """One routing choice after a phase attempt: the target phase, ``$end``, ``$fail`` or ``no_route``."""

    __tablename__ = "routing_decisions"
    __table_args__ = (
        _run_node_fk(),
        CheckConstraint("attempt >= 0", name="ck_routing_decisions_attempt"),
        Index("ix_routing_decisions_run", "run_id", "id"),
    )

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True))
    run_id: int = Field(sa_column=Column(Integer, nullable=False))
    run_node_id: int = Field(sa_column=Column(Integer, nullable=False))
    attempt: int = Field(sa_column=Column(Integer, nullable=False))
    decision: str | None = Field(default=None, sa_column=Column(String(100)))
    target: str = Field(sa_column=Column(String(64), nullable=False))
    priority: int | None = Field(default=None, sa_column=Column(Integer))
    edge_id: int | None = fk_field("tree_edges.id", "SET NULL")
    reason: str | None = text_field()
    created_at: datetime = ts_field(default_now=True)
    explanation: list[Any] | None = json_field()  # each transition routing looked at, with what its guard read


class PhaseArtifact(SQLModel, table=True):
    """A product of a phase attempt: its report, a diff, a context manifest, ..."""

    __tablename__ = "phase_artifacts"
    __table_args__ = (
        _run_node_fk(),
        CheckConstraint("attempt >= 0", name="ck_phase_artifacts_attempt"),
        CheckConstraint("kind <> ''", name="ck_phase_artifacts_kind"),
        Index("ix_phase_artifacts_node_kind_attempt", "run_node_id", "kind", "attempt"),
    )

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True))
    run_id: int = Field(sa_column=Column(Integer, nullable=False))
    run_node_id: int = Field(sa_column=Column(Integer, nullable=False))
    attempt: int = Field(sa_column=Column(Integer, nullable=False))
    kind: str = Field(sa_column=Column(String(32), nullable=False))
    content_text: str | None = text_field()
    content_json: Any = json_field()
    sha256: str = Field(sa_column=Column(String(64), nullable=False))
    created_at: datetime = ts_field(default_now=True)


class RunNodeDiagnostic(SQLModel, table=True):
    """How one finished attempt of a phase ended (one ``steps`` entry)."""

    __tablename__ = "run_node_diagnostics"
    __table_args__ = (
        _run_node_fk(),
        UniqueConstraint("run_node_id", "attempt", name="uq_run_node_diagnostics_node_attempt"),
        CheckConstraint(in_list("outcome", StepOutcome), name="ck_run_node_diagnostics_outcome"),
        CheckConstraint("attempt >= 0", name="ck_run_node_diagnostics_attempt"),
        Index("ix_run_node_diagnostics_run", "run_id", "id"),
    )

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True))
    run_id: int = Field(sa_column=Column(Integer, nullable=False))
    run_node_id: int = Field(sa_column=Column(Integer, nullable=False))
    attempt: int = Field(sa_column=Column(Integer, nullable=False))
    outcome: str = Field(sa_column=Column(String(16), nullable=False))
    reason: str | None = text_field()
    error_code: str | None = Field(default=None, sa_column=Column(String(100)))
    duration_ms: int | None = Field(default=None, sa_column=Column(Integer))
    tokens: int = int_field(0)
    cost_usd: float = float_field(0.0)
    event_count: int = int_field(0)
    details: dict[str, Any] | None = json_field()
    created_at: datetime = ts_field(default_now=True)


class RunNodeStreamEvent(SQLModel, table=True):
    """One provider event of one phase attempt, in arrival order (``sequence`` is gap-free per attempt)."""

    __tablename__ = "run_node_stream_events"
    __table_args__ = (
        _run_node_fk("workflow_run_id"),
        UniqueConstraint("run_node_id", "attempt", "sequence", name="uq_run_node_stream_events_sequence"),
        CheckConstraint(in_list("event_type", EventType), name="ck_run_node_stream_events_type"),
        Index("ix_run_node_stream_events_run", "workflow_run_id", "id"),
    )

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True))
    workflow_run_id: int = Field(sa_column=Column(Integer, nullable=False))
    run_node_id: int = Field(sa_column=Column(Integer, nullable=False))
    attempt: int = Field(sa_column=Column(Integer, nullable=False))
    sequence: int = Field(sa_column=Column(Integer, nullable=False))
    event_type: str = Field(sa_column=Column(String(16), nullable=False))
    timestamp: datetime = ts_field(default_now=True)
    content: str | None = text_field()
    event_metadata: dict[str, Any] | None = Field(default=None, sa_column=Column("metadata", JSON(none_as_null=True)))


class RunProcess(SQLModel, table=True):
    """A process group an attempt started (a command, an agent CLI): killed on take-over if still alive."""

    __tablename__ = "run_processes"
    __table_args__ = (Index("ix_run_processes_run", "run_id"),)

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True))
    run_id: int = Field(sa_column=Column(Integer, ForeignKey("workflow_runs.id", ondelete="CASCADE"), nullable=False))
    node_key: str = Field(sa_column=Column(String(64), nullable=False))
    attempt: int = Field(sa_column=Column(Integer, nullable=False))
    host: str = Field(sa_column=Column(String(200), nullable=False))
    pgid: int = Field(sa_column=Column(Integer, nullable=False))
    started: str | None = Field(default=None, sa_column=Column(String(32)))  # start time, guards pid reuse
    created_at: datetime = ts_field(default_now=True)


# --- files kept outside the branch (SPEC §17, migration 4) ----------------------------------------------


class FileBlob(SQLModel, table=True):
    """One stored file content, named by its sha256 (shared by every run file and memory file that holds it)."""

    __tablename__ = "file_blobs"
    __table_args__ = (CheckConstraint("size >= 0", name="ck_file_blobs_size"),)

    sha256: str = Field(sa_column=Column(String(64), primary_key=True))
    size: int = Field(sa_column=Column(BigInteger, nullable=False))
    created_at: datetime = ts_field(default_now=True)


class FileChunk(SQLModel, table=True):
    """One piece (at most 1 MiB) of a blob, in order: a file is stored and read back piece by piece."""

    __tablename__ = "file_chunks"

    sha256: str = Field(
        sa_column=Column(String(64), ForeignKey("file_blobs.sha256", ondelete="CASCADE"), primary_key=True)
    )
    seq: int = Field(sa_column=Column(Integer, primary_key=True, autoincrement=False))
    data: bytes = Field(sa_column=Column(LargeBinary, nullable=False))


class RunFile(SQLModel, table=True):
    """A file of a run's ``$ALPHRED_ARTIFACTS`` (area ``artifacts``) or ``$ALPHRED_MEMORY`` (area ``memory``)."""

    __tablename__ = "run_files"
    __table_args__ = (
        UniqueConstraint("run_id", "area", "path", name="uq_run_files_path"),
        CheckConstraint("area IN ('artifacts', 'memory')", name="ck_run_files_area"),
    )

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True))
    run_id: int = Field(sa_column=Column(Integer, ForeignKey("workflow_runs.id", ondelete="CASCADE"), nullable=False))
    area: str = Field(sa_column=Column(String(16), nullable=False))
    path: str = Field(sa_column=Column(Text, nullable=False))  # relative, with ``/``
    sha256: str = Field(sa_column=Column(String(64), ForeignKey("file_blobs.sha256"), nullable=False))
    size: int = Field(sa_column=Column(BigInteger, nullable=False))
    mode: int = int_field(0o644)
    mtime_ns: int | None = Field(default=None, sa_column=Column(BigInteger))  # of the file it was read from
    updated_at: datetime = ts_field(default_now=True)


class RunMemory(SQLModel, table=True):
    """The memory a run uses (``memory: NAME``): the key its files are saved under when it completes."""

    __tablename__ = "run_memories"

    run_id: int = Field(sa_column=Column(Integer, ForeignKey("workflow_runs.id", ondelete="CASCADE"), primary_key=True))
    repository: str = Field(sa_column=Column(Text, nullable=False))
    tree_key: str = Field(sa_column=Column(String(64), nullable=False))
    name: str = Field(sa_column=Column(String(100), nullable=False))
    restored_from: int | None = Field(default=None, sa_column=Column(Integer))  # the run that saved what it got


class Memory(SQLModel, table=True):
    """One memory across runs: repository, workflow key and name; the run that saved it last."""

    __tablename__ = "memories"
    __table_args__ = (UniqueConstraint("repository", "tree_key", "name", name="uq_memories_key"),)

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True))
    repository: str = Field(sa_column=Column(Text, nullable=False))
    tree_key: str = Field(sa_column=Column(String(64), nullable=False))
    name: str = Field(sa_column=Column(String(100), nullable=False))
    run_id: int | None = Field(default=None, sa_column=Column(Integer))
    saved_at: datetime = ts_field(default_now=True)


class MemoryFile(SQLModel, table=True):
    """A file of a memory as its last completed run left it."""

    __tablename__ = "memory_files"
    __table_args__ = (UniqueConstraint("memory_id", "path", name="uq_memory_files_path"),)

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True))
    memory_id: int = Field(sa_column=Column(Integer, ForeignKey("memories.id", ondelete="CASCADE"), nullable=False))
    path: str = Field(sa_column=Column(Text, nullable=False))
    sha256: str = Field(sa_column=Column(String(64), ForeignKey("file_blobs.sha256"), nullable=False))
    size: int = Field(sa_column=Column(BigInteger, nullable=False))
    mode: int = int_field(0o644)


def table(model: type[SQLModel]) -> Table:
    """The SQLAlchemy ``Table`` behind a SQLModel table class."""
    result = model.__table__  # type: ignore[attr-defined]
    assert isinstance(result, Table)
    return result


TOPOLOGY_MODELS: tuple[type[SQLModel], ...] = (
    WorkflowTree,
    PromptTemplate,
    GuardDefinition,
    Repository,
    TreeNode,
    TreeEdge,
)
RUN_MODELS: tuple[type[SQLModel], ...] = (
    WorkflowRun,
    RunNode,
    RoutingDecision,
    PhaseArtifact,
    RunNodeDiagnostic,
    RunNodeStreamEvent,
)
FILE_MODELS: tuple[type[SQLModel], ...] = (FileBlob, FileChunk, RunFile, RunMemory, Memory, MemoryFile)
TABLE_NAMES = (
    *(table(m).name for m in (*TOPOLOGY_MODELS, *RUN_MODELS)),
    table(RunProcess).name,
    table(Worker).name,
    *(table(m).name for m in FILE_MODELS),
)
"""Every table of the schema except ``schema_migrations``, in creation order."""
