"""Compiled workflows in a transaction: storing a version, its edge ids, and reading a tree back.

Writing a new version needs the ORM (``compile.py``); everything else here is Core, so reading a tree (the
web view's graph, the branch names of ``status``) never imports SQLModel or pydantic.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.engine import Connection

from alphred.store import schema
from alphred.store.assembly import workflow_source

if TYPE_CHECKING:
    from alphred.store.read_records import TopologyRecord, WorkflowSource
    from alphred.workflow.model import Workflow

TREES = schema.WORKFLOW_TREES
TREE_NODES = schema.TREE_NODES
# ``schema.TREE_EDGES`` and ``schema.GUARD_DEFINITIONS`` are built when first read (a run's start reads neither:
# building them as this module loads cost it ~3 M instructions, issue 29).


class TopologyOps:
    """Workflow trees (``workflow_trees``, ``tree_nodes``, ``tree_edges``) on the transaction's connection."""

    _conn: Connection

    def compile(self, workflow: Workflow) -> tuple[int, int]:
        """Store ``workflow`` as topology (same content -> same version) and return ``(tree_id, version)``."""
        from alphred.store.compile import workflow_content_hash

        stored = self._conn.execute(
            select(TREES.c.id, TREES.c.version)
            .where(TREES.c.tree_key == workflow.key, TREES.c.content_hash == workflow_content_hash(workflow))
            .order_by(TREES.c.version)
            .limit(1)
        ).first()
        if stored is not None:  # compiled before: no need for the ORM (SQLModel, pydantic) to write one
            return int(stored.id), int(stored.version)
        from sqlmodel import Session

        from alphred.store.compile import compile_workflow

        with Session(bind=self._conn, expire_on_commit=False) as session:
            tree = compile_workflow(session, workflow)
            assert tree.id is not None
            return tree.id, tree.version

    def edge_ids(self, tree_id: int) -> dict[tuple[str, int], int]:
        """The edge ids of tree ``tree_id``, keyed by ``(source phase key, priority)``."""
        edges = schema.TREE_EDGES
        query = (
            select(TREE_NODES.c.node_key, edges.c.priority, edges.c.id)
            .join(TREE_NODES, TREE_NODES.c.id == edges.c.source_node_id)
            .where(edges.c.tree_id == tree_id)
        )
        return {(key, priority): edge_id for key, priority, edge_id in self._conn.execute(query)}

    def tree_topology(self, tree_id: int) -> TopologyRecord:
        """Tree ``tree_id``'s phases in file order, its start phase and its transitions (by source, priority)."""
        from alphred.store.read_records import TopologyEdge, TopologyRecord

        edges, guards = schema.TREE_EDGES, schema.GUARD_DEFINITIONS
        nodes = self._conn.execute(
            select(TREE_NODES.c.id, TREE_NODES.c.node_key, TREE_NODES.c.node_type)
            .where(TREE_NODES.c.tree_id == tree_id)
            .order_by(TREE_NODES.c.sequence_index)
        ).all()
        edge_rows = self._conn.execute(
            select(
                edges.c.source_node_id,
                edges.c.target_node_id,
                edges.c.target_kind,
                edges.c.max_traversals,
                guards.c.expression,
            )
            .outerjoin(guards, guards.c.id == edges.c.guard_definition_id)
            .where(edges.c.tree_id == tree_id)
            .order_by(edges.c.source_node_id, edges.c.priority)
        ).all()
        start = self._conn.execute(select(TREES.c.start_node_key).where(TREES.c.id == tree_id)).scalar()
        key_of = {row.id: row.node_key for row in nodes}
        found = tuple(
            TopologyEdge(
                source=key_of.get(row.source_node_id, "?"),
                target_kind=row.target_kind,
                target=key_of.get(row.target_node_id) if row.target_kind == "node" else None,
                guard=row.expression,
                max_traversals=row.max_traversals,
            )
            for row in edge_rows
        )
        return TopologyRecord(start=start, phases=tuple((row.node_key, row.node_type) for row in nodes), edges=found)

    def trees_with_fan_outs(self, tree_ids: Iterable[int]) -> set[int]:
        """The trees of ``tree_ids`` with a fan-out (a phase whose stored config has ``fan_out``)."""
        wanted = sorted(set(tree_ids))
        if not wanted:
            return set()
        query = select(TREE_NODES.c.tree_id, TREE_NODES.c.config).where(TREE_NODES.c.tree_id.in_(wanted))
        return {row.tree_id for row in self._conn.execute(query) if (row.config or {}).get("fan_out")}

    def workflow_sources(self, tree_ids: Iterable[int]) -> dict[int, WorkflowSource]:
        """The stored workflow file of each tree in ``tree_ids`` (trees that do not exist are absent)."""
        wanted = sorted(set(tree_ids))
        if not wanted:
            return {}
        query = select(TREES.c.id, TREES.c.source_path, TREES.c.definition).where(TREES.c.id.in_(wanted))
        found = {}
        for row in self._conn.execute(query):
            found[row.id] = workflow_source(row.id, row.source_path, row.definition)
        return found
