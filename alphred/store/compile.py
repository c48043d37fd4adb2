"""Store a validated workflow as SQL topology: one ``workflow_trees`` version with its nodes and edges.

The same content (same ``content_hash``) always maps to the same stored version; changed content gets the
next version. Two processes compiling at once end with one row: a unique violation means the other one
won, so the tree is read again.
"""

from __future__ import annotations

import hashlib
import json
from contextlib import AbstractContextManager
from dataclasses import asdict
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy import func
from sqlalchemy.exc import IntegrityError

from alphred.store.enums import NodeType, TargetKind
from alphred.workflow.model import END, FAIL, Phase, Transition, Workflow

if TYPE_CHECKING:  # SQLModel (pydantic, the ORM) is imported only when a new tree version is written
    from sqlmodel import Session

    from alphred.store.tables import TreeNode, WorkflowTree

_ATTEMPTS = 5


class SessionSource(Protocol):
    """Anything that can open a write session (``SqlRunStore``)."""

    def session(self) -> AbstractContextManager[Session]:
        """A session in one write transaction, committed on success."""
        ...


def jsonable(value: Any) -> Any:
    """``value`` reduced to plain JSON types (mappings, lists, strings, numbers, booleans, null)."""
    return json.loads(json.dumps(value, default=_json_default, sort_keys=True))


def _json_dict(value: dict[str, Any]) -> dict[str, Any]:
    result = jsonable(value)
    assert isinstance(result, dict)
    return result


def _json_default(value: Any) -> Any:
    if isinstance(value, tuple | set | frozenset):
        return list(value)
    if hasattr(value, "items"):
        return dict(value.items())
    return str(value)


def _definition(workflow: Workflow) -> dict[str, Any]:
    return _json_dict(
        {
            "inputs": [asdict(i) for i in workflow.inputs],
            "limits": asdict(workflow.limits),
            "pull_request": asdict(workflow.pull_request) if workflow.pull_request else None,
            "source": {"text": workflow.source_text, "files": dict(workflow.source_files)},
        }
    )


def _node_config(phase: Phase) -> dict[str, Any]:
    return _json_dict(
        {
            "run": phase.run,
            "allow_failure": phase.allow_failure,
            "message": phase.message,
            "decisions": list(phase.decisions),
            "timeout": phase.timeout,
            "idle_timeout": phase.idle_timeout,
            "context": None if phase.context is None else list(phase.context),
            "options": phase.options,
            "prompt_file": phase.prompt_file,
            **({"uses": phase.uses} if phase.uses is not None else {}),
            **_parallel_config(phase),
        }
    )


def _to(t: Transition) -> str | list[str]:
    return list(t.fan_out) if t.fan_out else t.target


def _parallel_config(phase: Phase) -> dict[str, Any]:
    """§8 keys of a node, only where used: a fan-out edge row names its first branch, the list is here."""
    config: dict[str, Any] = {}
    fan_out = {str(t.priority): list(t.fan_out) for t in phase.transitions if t.fan_out}
    if fan_out:
        config["fan_out"] = fan_out
    if phase.join is not None:
        config["join"] = phase.join
    if phase.on_conflict is not None:
        config["on_conflict"] = phase.on_conflict
    return config


def _canonical(workflow: Workflow) -> dict[str, Any]:
    phases = [
        {
            "key": p.key,
            "type": p.type.value,
            "provider": p.provider,
            "model": p.model,
            "prompt": p.prompt,
            "max_retries": p.max_retries,
            "max_visits": p.max_visits,
            "config": _node_config(p),
            "transitions": [[_to(t), t.priority, t.when, t.max] for t in p.transitions],
        }
        for p in workflow.phases
    ]
    return {
        "key": workflow.key,
        "name": workflow.name,
        "description": workflow.description,
        "start": workflow.start,
        "definition": _definition(workflow),
        "phases": phases,
    }


def workflow_content_hash(workflow: Workflow) -> str:
    """The workflow's ``content_hash``, or a sha256 of its canonical content when the loader gave none."""
    if workflow.content_hash:
        return workflow.content_hash
    text = json.dumps(jsonable(_canonical(workflow)), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def compile_workflow(target: Session | SessionSource, workflow: Workflow) -> WorkflowTree:
    """Store ``workflow`` as topology, or find the version with the same content; return its tree row."""
    from sqlmodel import Session

    if isinstance(target, Session):
        return _compile(target, workflow)
    with target.session() as session:
        return _compile(session, workflow)


def find_tree(session: Session, key: str, content_hash: str) -> WorkflowTree | None:
    """The stored version of tree ``key`` with ``content_hash``, if any."""
    from sqlmodel import col, select

    from alphred.store.tables import WorkflowTree

    query = (
        select(WorkflowTree)
        .where(col(WorkflowTree.tree_key) == key, col(WorkflowTree.content_hash) == content_hash)
        .order_by(col(WorkflowTree.version))
    )
    return session.exec(query).first()


def _latest_version(session: Session, key: str) -> int:
    from sqlmodel import col, select

    from alphred.store.tables import WorkflowTree

    query = select(func.max(WorkflowTree.version)).where(col(WorkflowTree.tree_key) == key)
    return int(session.exec(query).one() or 0)


def _compile(session: Session, workflow: Workflow) -> WorkflowTree:
    digest = workflow_content_hash(workflow)
    failed_at: tuple[int, IntegrityError] | None = None
    for _ in range(_ATTEMPTS):
        # The latest version is read BEFORE looking for this content: a version committed by another
        # process in between is then either found here or collides with ours (and we look again).
        version = _latest_version(session, workflow.key) + 1
        existing = find_tree(session, workflow.key, digest)
        if existing is not None:
            return existing
        if failed_at is not None and failed_at[0] == version:
            raise failed_at[1]  # nobody else stored this version: the violation is our own
        try:
            with session.begin_nested():
                return _insert(session, workflow, digest, version)
        except IntegrityError as exc:  # another process stored this key and version meanwhile
            failed_at = (version, exc)
    assert failed_at is not None
    raise failed_at[1]


def _insert(session: Session, workflow: Workflow, digest: str, version: int) -> WorkflowTree:
    from alphred.store.tables import GuardDefinition, TreeEdge, WorkflowTree

    tree = WorkflowTree(
        tree_key=workflow.key,
        version=version,
        name=workflow.name,
        description=workflow.description,
        content_hash=digest,
        start_node_key=workflow.start,
        source_path=workflow.source_path,
        definition=_definition(workflow),
    )
    session.add(tree)
    session.flush()
    assert tree.id is not None
    nodes = {phase.key: _insert_node(session, tree, phase) for phase in workflow.phases}
    session.flush()
    for phase in workflow.phases:
        source = nodes[phase.key]
        for transition in phase.transitions:
            guard_id: int | None = None
            if transition.when is not None:
                guard = GuardDefinition(
                    guard_key=f"{workflow.key}/{phase.key}/{transition.priority}",
                    version=version,
                    expression=transition.when,
                )
                session.add(guard)
                session.flush()
                guard_id = guard.id
            kind, target_id = _target(transition.target, nodes)
            session.add(
                TreeEdge(
                    tree_id=tree.id,
                    source_node_id=_id(source),
                    target_node_id=target_id,
                    target_kind=kind.value,
                    priority=transition.priority,
                    auto=transition.when is None,
                    guard_definition_id=guard_id,
                    max_traversals=transition.max,
                )
            )
    session.flush()
    return tree


def _insert_node(session: Session, tree: WorkflowTree, phase: Phase) -> TreeNode:
    from alphred.store.tables import PromptTemplate, TreeNode

    prompt_id: int | None = None
    if phase.prompt is not None:
        prompt = PromptTemplate(template_key=f"{tree.tree_key}/{phase.key}", version=tree.version, content=phase.prompt)
        session.add(prompt)
        session.flush()
        prompt_id = prompt.id
    node = TreeNode(
        tree_id=_id(tree),
        node_key=phase.key,
        sequence_index=phase.sequence_index,
        node_type=NodeType(phase.type.value).value,
        provider=phase.provider,
        model=phase.model,
        prompt_template_id=prompt_id,
        max_retries=phase.max_retries,
        max_visits=phase.max_visits,
        config=_node_config(phase),
    )
    session.add(node)
    return node


def _target(target: str, nodes: dict[str, TreeNode]) -> tuple[TargetKind, int | None]:
    if target == END:
        return TargetKind.END, None
    if target == FAIL:
        return TargetKind.FAIL, None
    return TargetKind.NODE, _id(nodes[target])


def _id(row: TreeNode | WorkflowTree) -> int:
    assert row.id is not None, "row not flushed"
    return row.id
