"""The validated, frozen workflow model (SPEC §2). Built only by ``alphred.workflow.load``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field, replace
from enum import StrEnum
from functools import cached_property
from typing import TYPE_CHECKING, Any

from alphred.guards import Expr
from alphred.guards.templates import Template
from alphred.lazy import deferred_dataclass, forwarded

if TYPE_CHECKING:  # the optional blocks' types: loaded where a file uses one (``options.py``, issue 29)
    from alphred.workflow.options import Fallback, InputSpec, McpServer, PullRequestSpec, SandboxPolicy, ToolPolicy

END = "$end"
FAIL = "$fail"
RESERVED_TARGETS = (END, FAIL)
DEFAULT_DECISIONS = ("approved", "changes_requested", "blocked", "retry")
APPROVAL_DECISIONS = ("approved", "rejected")
DEFAULT_MAX_VISITS = 10
DEFAULT_MAX_STEPS = 100
DEFAULT_IDLE_TIMEOUT = 600.0
DEFAULT_CHECK_TIMEOUT = 600.0
DEFAULT_MAX_PARALLEL = 4
DEFAULT_MAX_WAIT = 6 * 3600.0  # seconds a run may wait out usage limits in all (SPEC §15)
DEFAULT_MAX_STALLS = 3  # consecutive stalled visits of a phase before the run fails ``stalled`` (SPEC §15)
DEFAULT_MAX_ARTIFACT_BYTES = 50 * 1024 * 1024  # per run, artifacts and memory each (SPEC §17)
JOIN_MODES = ("all", "any", "all_done")
DEFAULT_MAX_ITEMS = 20  # a for_each list longer than this fails the run (SPEC §13)
MAX_WORKFLOW_DEPTH = 4  # sub-workflows nest at most this deep below a top-level workflow (SPEC §13)
CHILD_IDLE_TIMEOUT = 10 * 365 * 24 * 3600.0  # a workflow phase has no idle timeout: its child's phases have theirs
TEMPLATE_PREFIX = "template:"  # ``uses: template:NAME``: a workflow bundled with Alphred (alphred/templates/)


class PhaseType(StrEnum):
    """What a phase executes."""

    AGENT = "agent"
    COMMAND = "command"
    APPROVAL = "approval"
    PULL_REQUEST = "pull_request"  # push the run branch and open (or update) its pull request (SPEC §16)
    CI = "ci"  # wait for the pull request's checks (SPEC §16)
    WORKFLOW = "workflow"  # run another workflow as a child run on the same branch and worktree (SPEC §13)


DEFAULT_CI_TIMEOUT = 3600.0
DEFAULT_CI_POLL = 30.0


@deferred_dataclass(frozen=True)
class SourcePos:
    """Where a node starts in the workflow file (1-based line and column)."""

    line: int
    column: int


@deferred_dataclass(frozen=True)  # made on first use (issue 29)
class Transition:
    """One outgoing edge of a phase; ``guard`` is None for an ``auto`` transition."""

    target: str
    priority: int
    when: str | None = None
    guard: Expr | None = None
    max: int | None = None
    pos: SourcePos = SourcePos(0, 0)
    fan_out: tuple[str, ...] = ()  # a fan-out's branch phases (SPEC §8); ``target`` is then the first
    branch_guards: tuple[Expr | None, ...] = ()  # per branch of a static fan-out: its ``when`` (SPEC §13)
    branch_whens: tuple[str | None, ...] = ()  # the guards' text, as written
    for_each: tuple[str, ...] | None = None  # the guard path of a dynamic fan-out's list (SPEC §13)
    alias: str | None = None  # ``as``: the item's path name inside each branch (``<alias>_index``: its index)

    @property
    def auto(self) -> bool:
        """True when the transition has no guard and always matches."""
        return self.guard is None

    @property
    def targets(self) -> tuple[str, ...]:
        """Every phase (or reserved target) the transition enters: the branches of a fan-out, else one."""
        return self.fan_out or (self.target,)


@deferred_dataclass(frozen=True)
class Limits:
    """Run-wide hard caps."""

    max_steps: int = DEFAULT_MAX_STEPS
    max_tokens: int | None = None
    max_cost_usd: float | None = None
    max_parallel: int = DEFAULT_MAX_PARALLEL  # phases executing at the same moment (SPEC §8)
    max_wait: float = DEFAULT_MAX_WAIT  # seconds of waiting out usage limits, in all (SPEC §15)
    max_stalls: int = DEFAULT_MAX_STALLS  # consecutive stalled visits of one phase (SPEC §15)
    max_artifact_bytes: int = DEFAULT_MAX_ARTIFACT_BYTES  # a run's $ALPHRED_ARTIFACTS (and $ALPHRED_MEMORY)
    max_items: int = DEFAULT_MAX_ITEMS  # the longest list a for_each may fan out over (SPEC §13)
    timeout: float | None = None  # run-wide wall clock in seconds from the run's stored start (reason timeout)


class CheckKind(StrEnum):
    """What a check of SPEC §9 verifies."""

    RUN = "run"  # a shell command in the worktree exits 0
    CHANGED = "changed"  # at least one path changed by the attempt matches
    UNCHANGED = "unchanged"  # no path changed by the attempt matches (those are restored on failure)
    REPORT = "report"  # the structured report is an object with the required keys


@deferred_dataclass(frozen=True)  # made on first use (issue 29)
class Check:
    """One entry of a phase's ``checks:`` list; ``name`` is ``check<N>`` when the file gives none."""

    name: str
    kind: CheckKind
    run: str | None = None  # the ``run`` command as written
    template: Template | None = None  # the parsed ``run`` command
    paths: tuple[str, ...] = ()  # globs of ``changed`` / ``unchanged``
    required: tuple[str, ...] = ()  # keys a ``report`` check requires
    timeout: float = DEFAULT_CHECK_TIMEOUT  # seconds, ``run`` checks only
    pos: SourcePos = SourcePos(0, 0)

    @property
    def description(self) -> str:
        """What the check verifies, in one line: ``pytest -q``, ``changed: src/**``, ``report: summary``."""
        if self.kind is CheckKind.RUN:
            return self.run or ""
        listed = self.paths if self.kind is not CheckKind.REPORT else self.required
        return f"{self.kind.value}: {', '.join(listed)}"


MCP_PREFIX = "mcp__"


@deferred_dataclass(frozen=True)
class Phase:
    """One node of the workflow graph, with every default already applied."""

    key: str
    type: PhaseType
    sequence_index: int
    transitions: tuple[Transition, ...] = ()
    provider: str | None = None
    model: str | None = None
    prompt: str | None = None  # prompt text (prompt_file already read)
    prompt_file: str | None = None  # as written in the file, for display
    run: str | None = None
    allow_failure: bool = False
    message: str | None = None
    decisions: tuple[str, ...] = ()
    max_retries: int = 0
    max_visits: int = DEFAULT_MAX_VISITS
    timeout: float | None = None
    idle_timeout: float = DEFAULT_IDLE_TIMEOUT
    context: tuple[str, ...] | None = None  # None: every direct predecessor; (): no upstream context
    max_reports: int | None = None  # ``context: {max_reports: N}``: how many reports it receives (None: 4)
    options: Mapping[str, Any] = field(default_factory=dict)  # provider-specific keys (script, sandbox...)
    templates: Mapping[str, Template] = field(default_factory=dict)  # "prompt" | "run" | "message"
    checks: tuple[Check, ...] = ()  # SPEC §9, run in order after the phase's work, before its commit
    pos: SourcePos = SourcePos(0, 0)
    join: str | None = None  # "all" | "any" | "all_done": the fan-in of a fan-out (SPEC §8, §13)
    on_conflict: str | None = None  # the phase that resolves a merge conflict at this join
    sandbox: SandboxPolicy | None = None  # SPEC §14: its processes run sandboxed (None: not)
    env: tuple[str, ...] = ()  # secret variables its processes may see (SPEC §14)
    tools: ToolPolicy | None = None  # SPEC §14: the tools its agent may use (None: the provider's own set)
    mcp: tuple[McpServer, ...] = ()  # SPEC §14: the MCP servers offered to its agent
    # SPEC §12: the JSON Schema of its report (``decision`` merged in for an agent phase); None: untyped
    output: Mapping[str, Any] | None = None
    shell: str = "sh"  # a command phase's shell: "sh" (/bin/sh) or "bash"
    fallback: tuple[Fallback, ...] = ()  # SPEC §15: providers the next attempt moves to, in order
    # SPEC §13: a ``type: workflow`` phase's ``uses:`` as written, the child workflow it loaded, and the input
    # names of its ``with:`` (their values are templates ``with.<name>`` in ``templates``)
    uses: str | None = None
    child: Workflow | None = field(default=None, repr=False, compare=False)
    with_inputs: tuple[str, ...] = ()

    def providers(self) -> tuple[str, ...]:
        """The phase's provider, then its fallbacks' (empty for a command or approval phase)."""
        if self.provider is None:
            return ()
        return (self.provider, *(f.provider for f in self.fallback))

    def with_provider(self, index: int) -> Phase:
        """The phase as its ``index``-th provider runs it (0: its own; 1: its first fallback...)."""
        if index <= 0 or not self.fallback:
            return self
        chosen = self.fallback[min(index, len(self.fallback)) - 1]
        return replace(self, provider=chosen.provider, model=chosen.model, options=chosen.options, fallback=())

    @cached_property
    def has_placeholder(self) -> bool:
        """True when one of the phase's templates holds a placeholder (an attempt then builds the context its
        values come from; issue 29: one without costs no context). Looked at once per phase object."""
        return any(not isinstance(part, str) for template in self.templates.values() for part in template.parts)

    @cached_property
    def by_priority(self) -> tuple[Transition, ...]:
        """Its transitions in evaluation (priority) order, sorted once per phase object (issue 29: routing
        looked them up sorted three times a phase)."""
        return tuple(sorted(self.transitions, key=lambda t: t.priority))

    @cached_property
    def needs_decision(self) -> bool:
        """True when an agent phase's transitions read ``decision`` (it must then end with one); found once per
        phase object."""
        from alphred.guards import guard_paths

        return self.type is PhaseType.AGENT and any(
            t.guard is not None and any(p[:1] == ("decision",) for p in guard_paths(t.guard)) for t in self.transitions
        )


@deferred_dataclass(frozen=True)
class Workflow:
    """A fully validated workflow file (format 1)."""

    key: str
    phases: tuple[Phase, ...]
    start: str
    name: str | None = None
    description: str | None = None
    inputs: tuple[InputSpec, ...] = ()
    limits: Limits = Limits()
    pull_request: PullRequestSpec | None = None
    pull_request_title: Template | None = None
    pull_request_when: Expr | None = None  # ``pull_request.when`` parsed
    source_path: str | None = None
    content_hash: str = ""  # sha256 of the canonical content (file text plus prompt files)
    source_text: str = field(default="", repr=False)  # the YAML text, stored with the tree for resume
    source_files: Mapping[str, str] = field(default_factory=dict, repr=False)  # prompt_file path -> text
    git_hooks: bool = False  # ``git: {hooks: true}``: Alphred's commits run the repository's hooks
    memory: str | None = None  # ``memory: NAME``: $ALPHRED_MEMORY, kept across runs (SPEC §17)

    def phase(self, key: str) -> Phase:
        """Return the phase called ``key`` (KeyError when there is none); a for_each item's instance
        ``<phase>-<index>`` (SPEC §13) is its phase."""
        found = self._by_key.get(key) or self._instances.get(key)
        if found is None:
            found = self._instances[key] = replace(self._by_key[base_key(key)], key=key)
        return found

    @cached_property
    def _instances(self) -> dict[str, Phase]:
        return {}

    def has_phase(self, key: str) -> bool:
        """True when ``key`` is a phase of the workflow or a for_each item's instance of one."""
        return key in self._by_key or (base_key(key) != key and base_key(key) in self._by_key)

    @cached_property
    def _by_key(self) -> dict[str, Phase]:
        return {p.key: p for p in self.phases}

    @cached_property
    def phase_keys(self) -> tuple[str, ...]:
        """Phase keys in file order."""
        return tuple(p.key for p in self.phases)

    def predecessors(self, key: str) -> tuple[str, ...]:
        """Phases with a transition into ``key``, in file order; for a for_each item's phase, the item's own
        instances of the predecessors inside its branch. Found once per key (the workflow is frozen; an agent
        phase's attempt reads them for its context, issue 29)."""
        found = self._predecessors.get(key)
        if found is None:
            found = self._predecessors[key] = self._find_predecessors(key)
        return found

    @cached_property
    def _predecessors(self) -> dict[str, tuple[str, ...]]:
        return {}

    def _find_predecessors(self, key: str) -> tuple[str, ...]:
        base = base_key(key)
        found = tuple(p.key for p in self.phases if any(base in t.targets for t in p.transitions))
        if base == key or self.item_alias(key) is None:
            return found
        index = int(key.rpartition("-")[2])
        return tuple(instance_key(p, index) if self.item_alias(p) is not None else p for p in found)

    @cached_property
    def fan_outs(self) -> tuple[FanOut, ...]:
        """Every fan-out with its branches and join, in file order (SPEC §8)."""
        return compute_fan_outs(self)

    def item_alias(self, key: str) -> str | None:
        """The ``as`` name of the for_each whose branch holds phase ``key`` (SPEC §13), or None."""
        found = self.item_source(key)
        return found[1].alias if found is not None else None

    def item_source(self, key: str) -> tuple[Phase, Transition] | None:
        """The phase and ``for_each`` transition whose branch holds phase ``key`` (SPEC §13), or None."""
        for group in self.fan_outs:
            source = self.phase(group.source)
            t = next(t for t in source.transitions if t.priority == group.priority)
            if t.alias is not None and group.branch_of(base_key(key)) is not None:
                return source, t
        return None

    def all_phases(self) -> tuple[Phase, ...]:
        """Its phases, then those of its sub-workflows (SPEC §13), depth first: every phase a run may start."""
        found = list(self.phases)
        for phase in self.phases:
            if phase.child is not None:
                found.extend(phase.child.all_phases())
        return tuple(found)

    @cached_property
    def parallel(self) -> bool:
        """True when the workflow has a fan-out (parallel branches, SPEC §8)."""
        return any(t.fan_out for p in self.phases for t in p.transitions)


def base_key(key: str) -> str:
    """The phase of a for_each item's instance key ``<phase>-<index>`` (SPEC §13); any other key itself.

    Phase keys hold no ``-``, so an instance key never names a phase of its own.
    """
    base, dash, index = key.rpartition("-")
    return base if dash and index.isdigit() else key


def instance_key(key: str, index: int) -> str:
    """The key of phase ``key`` running for item ``index`` of a for_each: ``<phase>-<index>``."""
    return f"{key}-{index}"


@deferred_dataclass(frozen=True)  # made on first use (issue 29)
class FanOut:
    """One fan-out transition: its branches (in listed order), each branch's phases, and its join.

    ``regions[b]`` holds the phases reachable from branch head ``b`` without passing a join phase;
    ``joins`` the join phases the branches reach (exactly one in a valid workflow); ``ends`` the
    transitions inside a branch that go to ``$end`` (invalid) as ``(phase, priority)``.
    """

    source: str
    priority: int
    branches: tuple[str, ...]
    regions: Mapping[str, frozenset[str]] = field(default_factory=dict)
    joins: tuple[str, ...] = ()
    ends: tuple[tuple[str, int], ...] = ()

    @property
    def join(self) -> str | None:
        """The join phase of this fan-out (None when the branches reach none or several)."""
        return self.joins[0] if len(self.joins) == 1 else None

    def branch_of(self, phase: str) -> str | None:
        """The branch head whose branch holds ``phase`` (None when no branch of this fan-out does)."""
        return next((head for head in self.branches if phase in self.regions[head]), None)


def compute_fan_outs(workflow: Workflow) -> tuple[FanOut, ...]:
    """Every fan-out of ``workflow`` in file order (use ``fan_outs``, which caches it)."""
    keys = set(workflow.phase_keys)
    found: list[FanOut] = []
    for phase in workflow.phases:
        for t in phase.transitions:
            if not t.fan_out or not set(t.fan_out) <= keys:
                continue
            regions: dict[str, frozenset[str]] = {}
            joins: list[str] = []
            ends: list[tuple[str, int]] = []
            for head in t.fan_out:
                regions[head] = _region(workflow, head, joins, ends)
            found.append(FanOut(phase.key, t.priority, t.fan_out, regions, tuple(joins), tuple(ends)))
    return tuple(found)


def _region(workflow: Workflow, head: str, joins: list[str], ends: list[tuple[str, int]]) -> frozenset[str]:
    keys = set(workflow.phase_keys)
    if workflow.phase(head).join is not None:
        if head not in joins:
            joins.append(head)
        return frozenset()
    seen = {head}
    todo = [head]
    while todo:
        phase = workflow.phase(todo.pop())
        for t in phase.transitions:
            for target in t.targets:
                if target == END and (phase.key, t.priority) not in ends:
                    ends.append((phase.key, t.priority))
                if target not in keys or target in seen:
                    continue
                if workflow.phase(target).join is not None:
                    if target not in joins:
                        joins.append(target)
                    continue
                seen.add(target)
                todo.append(target)
    return frozenset(seen)


_OPTIONS = dict.fromkeys(
    ("Fallback", "InputSpec", "McpServer", "PullRequestSpec", "SandboxPolicy", "ToolPolicy"), "alphred.workflow.options"
)


def __getattr__(name: str) -> Any:
    """The optional blocks' types of ``options.py``, loaded when first asked for (``from ... model import``)."""
    return forwarded(globals(), name, _OPTIONS)
