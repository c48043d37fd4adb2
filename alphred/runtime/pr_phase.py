"""``type: pull_request`` (SPEC §16): push the run branch and open its pull request, or update the open one.

The attempt is its own intent record: it is stored running before anything is pushed, and every step is safe
to repeat (a push of the same commits changes nothing; the branch's open pull request is looked up before
one is created), so an attempt killed at any instant and run again leaves exactly one pull request.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from alphred.engine import RunState, template_context
from alphred.errors import DeliveryError, ProviderError
from alphred.git import GitWorktrees
from alphred.git.command import git_environment, run_git
from alphred.guards.templates import render_template
from alphred.providers.base import EventType, ProviderEvent, result_event
from alphred.runtime.attempt_context import PhaseContext
from alphred.runtime.crash import crash_point
from alphred.workflow import Phase

if TYPE_CHECKING:
    from alphred.scm.existing import ExistingPullRequest

DELIVERY_FAILED = "DELIVERY_FAILED"


async def pull_request_events(ctx: PhaseContext, state: RunState, phase: Phase) -> AsyncIterator[ProviderEvent]:
    """The attempt's events: what it does, then its result with the report ``{url, number, head}``."""
    report, said = await asyncio.to_thread(open_or_update_phase, ctx, state, phase)
    for line in said:
        yield ProviderEvent(EventType.SYSTEM, line)
    yield result_event(said[-1], report=report)


def open_or_update_phase(ctx: PhaseContext, state: RunState, phase: Phase) -> tuple[dict[str, Any], list[str]]:
    """Blocking: push, open or update; the report and the lines that say what happened."""
    from alphred.scm import DeliveryRequest, PullRequestExtras, has_commits, open_or_update

    record = ctx.store.get_run(ctx.run_id)
    branch = record.branch or ""
    if "branch" in phase.templates and ctx.pull_request is not None:  # SPEC §17: its own branch, its own PR
        branch = cut_branch(ctx, state, phase)
    plan = ctx.pull_request
    if plan is None or ctx.describe is None:
        said = "no pull request is opened (--no-pr or --dry-run): the phase reports none"
        return {"url": None, "number": None, "head": branch}, [said]
    if "existing" in phase.templates:  # SPEC §17: push to a pull request that already exists
        try:
            return push_existing(ctx, state, phase, plan.remote)
        except DeliveryError as exc:
            raise ProviderError(ctx.redactor.redact(exc.message), kind="transport", code=DELIVERY_FAILED) from None
    title, body = ctx.describe(ctx.store, ctx.workflow, record, state, phase)
    options = phase.options
    request = DeliveryRequest(
        repo_root=Path(record.repo_path or "."),
        branch=branch,
        base=str(options.get("base") or plan.base),
        title=ctx.redactor.redact(title),
        body=ctx.redactor.redact(body),
        remote=plan.remote,
        draft=bool(options.get("draft", plan.draft)),
        provider=plan.provider,
        env=ctx.environ,
    )
    extras = PullRequestExtras(tuple(options.get("labels") or ()), tuple(options.get("reviewers") or ()))
    try:
        if not has_commits(request):
            said = f"nothing to deliver: {branch} has no commit on top of {request.base}; no pull request is opened"
            return {"url": None, "number": None, "head": branch}, [said]
        crash_point("pull_request_phase")
        opened = open_or_update(request, extras)
    except DeliveryError as exc:
        kind = "invalid_request" if exc.kind in ("no_remote", "auth") else "transport"
        raise ProviderError(ctx.redactor.redact(exc.message), kind=kind, code=DELIVERY_FAILED) from None
    crash_point("pull_request_phase_opened")
    verb = "opened" if opened.created else "updated"
    report = {**opened.report(), "sha": ctx.worktrees.head_sha(ctx.worktree)}  # SPEC §17: the pushed commit
    return report, [f"pushed {branch}", f"pull request {verb}: {opened.url}"]


PR_FROM_FORK = "PR_FROM_FORK"


def cut_branch(ctx: PhaseContext, state: RunState, phase: Phase) -> str:
    """The phase's own branch (``branch:``, rendered and sanitised) at the run's head: made, or moved forward
    (never back, never across: a branch that went elsewhere is a DELIVERY_FAILED); return its name."""
    from alphred.git import sanitize_branch_name

    values = ctx.template_values(template_context(state, ctx.workflow, phase.key))
    name = sanitize_branch_name(render_template(phase.templates["branch"], values))
    head = ctx.worktrees.head_sha(ctx.worktree)
    root = ctx.worktrees.location.root
    env = git_environment()
    dirs = ctx.worktrees.dirs(ctx.worktree)
    found = run_git(("rev-parse", "--verify", "--quiet", f"refs/heads/{name}"), root, env, check=False, dirs=dirs)
    current = found.stdout.decode().strip() if found.returncode == 0 else None
    if current == head:
        return name
    if current is not None and not _is_ancestor(root, current, head, env, dirs):
        message = f"branch {name} holds commits the run branch lacks: it is not moved (pick another branch:)"
        raise ProviderError(message, kind="invalid_request", code=DELIVERY_FAILED)
    run_git(("update-ref", f"refs/heads/{name}", head), root, env, dirs=dirs)
    return name


def existing_ref(ctx: PhaseContext, state: RunState, phase: Phase) -> str:
    """The rendered ``existing:`` of a pull_request phase (a number or URL)."""
    values = ctx.template_values(template_context(state, ctx.workflow, phase.key))
    return render_template(phase.templates["existing"], values).strip()


def check_out_existing(
    worktrees: GitWorktrees, worktree: Path, environ: Mapping[str, str], phase: Phase, ref: str, remote: str
) -> tuple[ExistingPullRequest, str, list[str]]:
    """Find the pull request, refuse a fork (unless ``allow_forks``), fetch its head branch and, when the run
    has no commit of its own on top of it, move the run's worktree to it. Returns (the pull request, the run's
    head now, what was done). Safe to repeat: a worktree already at (or past) the head stays as it is."""
    from alphred.scm.existing import fetch_head, find_existing

    repo_root = worktrees.location.root
    pull = find_existing(repo_root, ref, environ)
    if pull.fork and not phase.options.get("allow_forks"):
        raise ProviderError(
            f"pull request {pull.url} comes from a fork (its head branch {pull.head} lives in another repository): "
            "nothing was pushed; set allow_forks: true on phase "
            f"'{phase.key}' to work on it",
            kind="invalid_request",
            code=PR_FROM_FORK,
        )
    head_sha = fetch_head(repo_root, remote, pull.head, environ)
    run_head = worktrees.head_sha(worktree)
    dirs = worktrees.dirs(worktree)
    env = git_environment()
    if run_head != head_sha and _is_ancestor(worktree, run_head, head_sha, env, dirs):
        run_git(("reset", "--hard", "--quiet", head_sha), worktree, env, dirs=dirs)
        worktrees.forget(worktree)
        return pull, head_sha, [f"checked out {pull.head} of {pull.url} ({head_sha[:12]})"]
    return pull, run_head, []


def push_existing(ctx: PhaseContext, state: RunState, phase: Phase, remote: str) -> tuple[dict[str, Any], list[str]]:
    """Check the pull request's head out (first visit), or push the run's commits to its head branch."""
    from alphred.scm.existing import push_to_head

    ref = existing_ref(ctx, state, phase)
    pull, head, said = check_out_existing(ctx.worktrees, ctx.worktree, ctx.environ, phase, ref, remote)
    if said:  # moved to the pull request's head: the run's recorded head with this attempt's outcome
        ctx.pending.append(lambda tx: tx.update_run(ctx.run_id, head_sha=head))
    crash_point("pull_request_phase")
    pushed = push_to_head(ctx.worktrees.location.root, remote, head, pull.head, ctx.environ)
    crash_point("pull_request_phase_opened")
    said.append(f"pushed {head[:12]} to {pull.head}" if pushed else f"{pull.head} already holds {head[:12]}")
    said.append(f"pull request: {pull.url}")
    return {"url": pull.url, "number": pull.number, "head": pull.head, "sha": head}, said


def _is_ancestor(cwd: Path, older: str, newer: str, env: Mapping[str, str], dirs: Any) -> bool:
    done = run_git(("merge-base", "--is-ancestor", older, newer), cwd, env, check=False, dirs=dirs)
    return done.returncode == 0
