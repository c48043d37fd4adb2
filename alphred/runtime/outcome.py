"""How an attempt ends: what its ``result`` says, its report, its commit (after its outcome is recorded as the
commit's intent), and the engine event that reports it."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from alphred.engine import CHECKS_FAILED, OUTPUT_INVALID, PhaseCompleted, PhaseFailed, decision_problem
from alphred.engine.state import evolve
from alphred.git import CommitResult, phase_commit_message
from alphred.git.merges import LaneGit
from alphred.providers import ProviderEvent
from alphred.runtime.attempt_context import AttemptStats, PhaseContext
from alphred.runtime.checks import ChecksResult
from alphred.runtime.crash import crash_point
from alphred.runtime.typed_output import PROBLEM_KEY, typed_answer, violations_message
from alphred.store import StoreTransaction
from alphred.workflow import Phase, PhaseType


@dataclass(frozen=True)
class Verdict:
    """What the attempt's ``result`` says: decision, report, exit code, and why it fails (if it does)."""

    decision: str | None
    exit_code: int | None
    text: str
    structured: dict[str, Any] | None
    problem: str | None
    violations: tuple[str, ...] = ()  # how a typed report breaks its ``output:`` (SPEC §12); () when it conforms

    @property
    def report(self) -> Any:
        """The report the engine and guards see: the structured object when there is one, else the text."""
        return self.structured if self.structured is not None else self.text


def read_result(ctx: PhaseContext, phase: Phase, result: ProviderEvent) -> Verdict:
    metadata = dict(result.metadata)
    exit_code = metadata.get("exit_code") if phase.type is PhaseType.COMMAND else None
    decides = phase.type in (PhaseType.AGENT, PhaseType.WORKFLOW)  # a workflow phase: its child's last decision
    raw_decision = metadata.get("routingDecision") if decides else None
    decision = raw_decision if isinstance(raw_decision, str) else None
    raw_report = metadata.get("report")
    violations: tuple[str, ...] = ()
    if phase.output is not None and not _stand_in(ctx, phase):
        problem_text = metadata.get(PROBLEM_KEY)
        answer = typed_answer(phase, decision, raw_report, result.content, problem_text)
        raw_report, violations = answer.report, tuple(ctx.redactor.redact(v) for v in answer.violations)
        decision = answer.decision if phase.type is PhaseType.AGENT else None
    structured = ctx.redactor.redact_data(raw_report) if isinstance(raw_report, dict) else None
    text = _json(structured) if structured is not None else ctx.redactor.redact(result.content)
    problem = None
    if phase.type is PhaseType.COMMAND and exit_code != 0 and not phase.allow_failure:
        problem = f"command exited with {exit_code}"
    elif phase.type is PhaseType.AGENT:
        problem = decision_problem(phase, decision)
    code = exit_code if isinstance(exit_code, int) and not isinstance(exit_code, bool) else None
    return Verdict(decision, code, text, structured, problem, violations)


def _stand_in(ctx: PhaseContext, phase: Phase) -> bool:
    """Whether the attempt's answer came from ``--dry-run``'s stand-in (not validated: it did no work)."""
    if phase.type is PhaseType.COMMAND:
        return ctx.dry_run_commands
    return phase.provider is not None and bool(getattr(ctx.registry.resolve(phase.provider), "stub", False))


def complete_attempt(
    ctx: PhaseContext,
    phase: Phase,
    attempt: int,
    visit: int,
    verdict: Verdict,
    stats: AttemptStats,
    checked: ChecksResult | None = None,
    resolving: tuple[str, ...] | None = None,
) -> PhaseCompleted | PhaseFailed:
    """Store the attempt's report, commit its changes, and report the outcome to the engine.

    A report becomes kind ``report`` (what downstream phases receive as context) only when the attempt
    succeeds; the output of a failing attempt is kept as kind ``output``. Failed checks fail the attempt
    (``checks_failed``, retryable) before anything is committed; what is left in the worktree stays for the retry.
    """
    text, structured, problem = verdict.text, verdict.structured, verdict.problem
    if checked is not None:
        stats.details["checks"] = [outcome.stored() for outcome in checked.outcomes]
        if checked.restored:
            stats.details["restored"] = list(checked.restored)
        if not checked.passed:
            problem = ctx.redactor.redact(checked.summary())
    kind = "output" if problem or verdict.violations else "report"
    ctx.pending.append(lambda tx: tx.add_artifact(ctx.run_id, phase.key, attempt, kind, text=text, data=structured))
    if checked is not None and not checked.passed:
        stats.message = problem
        stats.output_tail = "\n".join(o.output.rstrip("\n") for o in checked.outcomes if not o.passed and o.output)
        return PhaseFailed(phase.key, attempt, CHECKS_FAILED, True, "CHECKS_FAILED", stats.tokens, stats.cost_usd)
    if problem and phase.type is PhaseType.COMMAND:
        stats.message = problem
        stats.output_tail = text
        return PhaseFailed(phase.key, attempt, "exit_code", True, "COMMAND_FAILED", stats.tokens, stats.cost_usd)
    if verdict.violations:  # the retry's context carries each violation (the failure message)
        stats.message = violations_message(phase.key, verdict.violations)
        stats.details["violations"] = list(verdict.violations)
        return PhaseFailed(phase.key, attempt, OUTPUT_INVALID, True, "OUTPUT_INVALID", stats.tokens, stats.cost_usd)
    completed = PhaseCompleted(
        phase.key,
        attempt,
        decision=verdict.decision,
        report=verdict.report,
        exit_code=verdict.exit_code,
        tokens=stats.tokens,
        cost_usd=stats.cost_usd,
        checks=checked.guard_values() if checked is not None else {},
        child_steps=stats.child_steps,
    )
    if problem:
        return completed
    message = phase_commit_message(ctx.workflow.key, phase.key, visit, run_id=ctx.run_id, attempt=attempt)
    intent = outcome_intent(completed, visit)

    def record_intent() -> None:
        """The outcome is written before the commit: a take-over finds it and redoes nothing."""
        ctx.pending.append(lambda tx: tx.add_artifact(ctx.run_id, phase.key, attempt, OUTCOME, data=intent))
        with ctx.store.transaction() as tx:
            for write in ctx.pending:
                write(tx)
        ctx.pending.clear()
        crash_point("before_commit")

    if resolving is not None:
        return _commit_merge(ctx, completed, resolving, stats, record_intent)
    since = stats.details.get("start_sha")
    commit = ctx.worktrees.commit_phase(ctx.worktree, message, since=since, before_commit=record_intent)
    crash_point("after_commit")
    if commit is not None:
        ctx.pending.append(record_commit(ctx, phase.key, attempt, commit))
        stats.details["commit"] = commit.sha
    head = commit.sha if commit is not None else since or ctx.worktrees.head_sha(ctx.worktree)
    tree = ctx.worktrees.tree_sha(ctx.worktree, head)  # for stall detection (SPEC §15)
    return evolve(completed, tree=tree)  # a copy without ``__init__`` again (``replace`` rebuilds every field)


MERGE_UNRESOLVED = "merge_unresolved"
"""Failure reason of a resolver attempt that left an unmerged path or a conflict marker (retryable)."""


def _commit_merge(
    ctx: PhaseContext,
    completed: PhaseCompleted,
    conflicts: tuple[str, ...],
    stats: AttemptStats,
    record_intent: Callable[[], None],
) -> PhaseCompleted | PhaseFailed:
    """The resolver completed: stage everything and commit the merge, unless something is left unresolved."""
    sha, remaining = LaneGit(ctx.worktrees).finish_merge(ctx.worktree, conflicts, before_commit=record_intent)
    if sha is None:
        stats.message = "conflicts remain in " + ", ".join(remaining)
        stats.details["unresolved"] = list(remaining)
        key, attempt = completed.phase, completed.attempt
        return PhaseFailed(key, attempt, MERGE_UNRESOLVED, True, "MERGE_UNRESOLVED", stats.tokens, stats.cost_usd)
    crash_point("after_commit")
    stats.details["commit"] = sha
    ctx.pending.append(lambda tx: tx.update_run(ctx.run_id, head_sha=sha))
    return completed


OUTCOME = "outcome"
"""Artifact kind of an attempt's outcome, written before its commit (the commit's intent)."""


def outcome_intent(event: PhaseCompleted, visit: int) -> dict[str, Any]:
    """The JSON form of a completed attempt's outcome, kept as its ``outcome`` artifact."""
    return {
        "decision": event.decision, "report": event.report, "exit_code": event.exit_code,
        "tokens": event.tokens, "cost_usd": event.cost_usd, "checks": dict(event.checks), "visit": visit,
        "child_steps": event.child_steps,
    }  # fmt: skip


def outcome_event(phase: str, attempt: int, data: dict[str, Any]) -> PhaseCompleted:
    """The engine event of an outcome stored by ``outcome_intent``."""
    return PhaseCompleted(
        phase, attempt, decision=data.get("decision"), report=data.get("report"), exit_code=data.get("exit_code"),
        tokens=int(data.get("tokens") or 0), cost_usd=float(data.get("cost_usd") or 0.0),
        checks=dict(data.get("checks") or {}), child_steps=int(data.get("child_steps") or 0),
    )  # fmt: skip


def record_commit(
    ctx: PhaseContext, phase: str, attempt: int, commit: CommitResult
) -> Callable[[StoreTransaction], None]:
    """The write that records a phase's commit: its diff (redacted) as an artifact, the run's head (on the run
    branch; a parallel branch's head is its worktree's)."""
    diff, sha = ctx.redactor.redact(commit.diff), commit.sha

    branch = ctx.branch

    def write(tx: StoreTransaction) -> None:
        tx.add_artifact(ctx.run_id, phase, attempt, "diff", text=diff, data={"lane": branch} if branch else None)
        if branch is None:  # a parallel branch's commits reach the run branch through its join's merge
            tx.update_run(ctx.run_id, head_sha=sha)

    return write


def _json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False, indent=2)
