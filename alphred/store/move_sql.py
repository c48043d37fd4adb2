"""The SQL of a runner's phase move (``RunOps.move_node``, ``start_node``): ONE guarded ``UPDATE`` per kind of
move, built once (issue 29)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import BindParameter, Integer, Text, Update, bindparam, case, literal_column, null, or_, update

from alphred.store.enums import NodeStatus
from alphred.store.moves import NODE_TRANSITIONS
from alphred.store.prepared import named
from alphred.store.schema import RUN_NODES as NODES

_RUN_ID: BindParameter[int] = bindparam("_run_id", type_=Integer)
_NODE_KEY: BindParameter[str] = bindparam("_node_key", type_=Text)
_NODE_ENDED = frozenset({NodeStatus.COMPLETED, NodeStatus.FAILED, NodeStatus.SKIPPED, NodeStatus.CANCELLED})
_LEASE_FIELDS = frozenset({"lease_owner", "lease_expires_at"})
FIXED_FIELDS = _LEASE_FIELDS | {"started_at", "completed_at", "updated_at"}  # a fast move sets them itself
_NOW: BindParameter[Any] = bindparam("_now", type_=NODES.c.updated_at.type)
_OWNER: BindParameter[str] = bindparam("_owner", type_=Text)
_MOVES: dict[tuple[NodeStatus, NodeStatus | None, bool, bool, bool], Update] = {}


def move_statement(target: NodeStatus, via: NodeStatus | None, counted: bool, leased: bool, fresh: bool) -> Update:
    """The one UPDATE of a guarded phase move (``move_node``), built once per kind of move: the row moves only
    from a status SPEC §5 allows (through ``via`` when given), and with ``leased`` only while no other live
    owner holds the phase's lease (``_owner``, ``_now``); its row count says whether it moved (no
    ``RETURNING``: reading a result back costs more than the UPDATE). ``counted``: the attempt is the stored
    one + 1 (no ``attempt`` given). ``fresh``: only while the stored attempt is below the one given
    (``_fresh``), so that a move says the attempt never ran before: no event of it exists (the slow way
    moves the others)."""
    key = (target, via, counted, leased, fresh)
    found = _MOVES.get(key)
    if found is not None:
        return found
    first = via or target
    sources = sorted(old.value for old in NodeStatus if first in NODE_TRANSITIONS[old])
    status = NODES.c.status
    # the statuses are SQL literals, not an expanding parameter: SQLAlchemy would render the IN list again on
    # every execution of the cached statement ("post-compile"); they are fixed for this kind of move anyway. Equal
    # to one of them, not IN them: SQLite builds a temporary b-tree for an IN list of more than two constants on
    # every execution (~33 k instructions, a third of such an UPDATE; issue 29)
    allowed = or_(*(status == literal_column(f"'{source}'") for source in sources))  # the words of NodeStatus
    conditions: list[Any] = [NODES.c.run_id == _RUN_ID, NODES.c.node_key == _NODE_KEY, allowed]
    if fresh:
        conditions.append(NODES.c.attempt < bindparam("_fresh", type_=Integer))
    # what the move sets besides the given fields, in the statement: the status a literal, every timestamp the one
    # ``_now`` (one parameter, not three), the lease the owner's (``_owner``, ``_expires``)
    fixed: dict[str, Any] = move_values(None, via, _NOW) if via is not None else {}
    fixed.update(move_values(None, target, _NOW))
    fixed = {key: _literal(value) for key, value in fixed.items()}
    if counted:
        fixed["attempt"] = NODES.c.attempt + 1
    running = NodeStatus.RUNNING.value
    is_running = status == _literal(running)
    if leased:  # free: unheld, held by this owner, expired (or dropped by the move's first step, out of running)
        owners, expiry = NODES.c.lease_owner, NODES.c.lease_expires_at
        free = [owners.is_(None), owners == _OWNER, expiry < _NOW]
        if via is not None and running in sources:
            free.append(is_running)
        conditions.append(or_(*free))
        fixed.update(lease_owner=_OWNER, lease_expires_at=bindparam("_expires", type_=expiry.type))
    elif running in sources:  # leaving running drops the lease
        fixed["lease_owner"] = case((is_running, null()), else_=NODES.c.lease_owner)
        fixed["lease_expires_at"] = case((is_running, null()), else_=NODES.c.lease_expires_at)
    statement = update(NODES).where(*conditions).values(fixed)  # no RETURNING: the row count says (it costs 60 % more)
    statement = named(move_name(target, via, counted, leased, fresh), statement)
    _MOVES[key] = statement
    return statement


def move_name(target: NodeStatus, via: NodeStatus | None, counted: bool, leased: bool, fresh: bool) -> str:
    """The name of a kind of move's statement (``prepared.named``): ``move.<target>.<via or ->.<flags>``."""
    flags = "".join("1" if flag else "0" for flag in (counted, leased, fresh))
    return f"move.{target.value}.{via.value if via is not None else '-'}.{flags}"


def move_of_name(name: str) -> Update:
    """The statement ``move_name`` names (``sql_gen``)."""
    _, target, via, flags = name.split(".")
    counted, leased, fresh = (flag == "1" for flag in flags)
    return move_statement(NodeStatus(target), None if via == "-" else NodeStatus(via), counted, leased, fresh)


def _literal(value: Any) -> Any:
    """A fixed value of a move's statement as SQL: a status word as a literal, None as NULL, the rest as it is."""
    if isinstance(value, str):
        return literal_column(f"'{value}'")  # the words of NodeStatus
    return null() if value is None else value


def move_values(old: NodeStatus | None, target: NodeStatus, now: Any) -> dict[str, Any]:
    """What a move to ``target`` sets besides the status: the timestamps (and, from ``old`` = running, the
    dropped lease; None: not known here)."""
    values: dict[str, Any] = {"status": target.value, "updated_at": now}
    if target is NodeStatus.RUNNING:
        values.update(started_at=now, completed_at=None)
    elif target in _NODE_ENDED:
        values["completed_at"] = now
    if old is NodeStatus.RUNNING:
        values.update(lease_owner=None, lease_expires_at=None)
    return values
