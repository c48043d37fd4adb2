"""What ``alphred run`` loads and spawns on its way to the first step (issue 29, item 4: run start).

The figures are in ``benchmarks/run_start.py``; these tests keep the start path free of what it no longer
needs: the PostgreSQL dialect on a SQLite run, the pull-request package for a run that opens no pull request, and
the modules of what a one-agent-phase run does not do before its first provider call (other kinds of phases,
sub-workflows, taking over an interrupted run, the attempt's verdict and checks).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers.processes import modules_imported
from helpers.runs import alphred, base_env, workflow

from alphred.errors import GitError, GitLockedError
from alphred.git.command import git_environment, run_git

ONE = """\
phases:
  say:
    type: command
    run: echo hello
"""


def test_a_sqlite_run_never_imports_the_postgresql_dialect(repo: Path) -> None:
    wf = workflow(repo, ONE)
    code, loaded = modules_imported(
        ["run", str(wf), "--quiet"], ["sqlalchemy.dialects.postgresql"],
        env=base_env(repo.parent), cwd=repo,
    )  # fmt: skip
    assert code == 0
    assert loaded == []
    runs = alphred(repo, "runs", "--json")
    assert '"status": "completed"' in runs.stdout


# What ``alphred run`` of one scripted agent phase must not have imported when its provider is first called.
OFF_THE_START_PATH = (
    "alphred.runtime.child_run",  # sub-workflows: only a workflow with a ``type: workflow`` phase
    "alphred.runtime.takeover",  # settling a run another process left: resuming
    "alphred.runtime.cleanup",  # removing worktrees: the run's end, resume, gc
    "alphred.git.repair",  # stale locks and saved work of a killed run: resuming
    "alphred.runtime.outcome",  # the attempt's verdict: after its provider returned
    "alphred.runtime.checks",  # the phase's checks: after the provider
    "alphred.runtime.dry_commands",  # --dry-run's commands and checks
    "alphred.runtime.command_phase",  # command phases
    "alphred.runtime.ci_phase",  # ci phases
    "alphred.runtime.pr_phase",  # pull_request phases
    "alphred.views.pull_request",  # the pull request's words: when one is opened
    "alphred.views.branch_status",  # the closing block: the run's end
    "alphred.views.status",  # the status object: the run's end
    "alphred.store.read_records",  # the records reading, resuming, the queue, files and the registry hand out
    "alphred.workflow.options",  # inputs:, pull_request:, sandbox:, tools:, mcp:, fallback: where a file has them
    "alphred.providers.dryrun",  # --dry-run's stand-in providers
    "difflib",  # a did-you-mean for a misspelt key or a guard's missing key: errors and explanations only
    "alphred.scm",
    "sqlalchemy.dialects.postgresql",
)
# The engine's and the model's classes such a run does not make before its first provider call: each is a
# ``deferred_dataclass``, whose methods dataclasses has not made by then (issue 29: ~3 M instructions a class).
NOT_MADE_AT_THE_START = (
    "events.AddPhase",
    "events.ApprovalGiven",
    "events.ApprovalRequested",
    "events.AwaitApproval",
    "events.AwaitCi",
    "events.CancelRequested",
    "events.CiWaiting",
    "events.Deliver",
    "events.DeliveryDone",
    "events.DeliveryFailed",
    "events.MergeBranch",
    "events.MergeConflicted",
    "events.MergeDone",
    "events.PauseRequested",
    "events.PhaseCompleted",
    "events.PhaseFailed",
    "events.PhaseInterrupted",
    "events.RecordPullRequest",
    "events.RecordRouting",
    "events.RecordStep",
    "events.Resume",
    "events.RetryRun",
    "events.RunFinished",
    "events.StopPhase",
    "events.TimedOut",
    "state.Lane",
    "state.MergeState",
    "state.Step",
    "model.Check",
    "model.FanOut",
    "model.Transition",
    # the store's, the guards', the providers', git's and the runtime's (issue 29, sixth pass)
    "ast.And",
    "ast.Compare",
    "ast.ListExpr",
    "ast.Literal",
    "ast.Not",
    "ast.Or",
    "ast.Path",
    "base.ProviderEvent",
    "clones.Identity",
    "delivery.PullRequestPlan",
    "explain.PathReading",
    "merges.MergeOutcome",
    "records.EventRow",
    "run_files.LocalFile",
    "sandbox.Sandbox",
    "shell.Spot",
    "snapshot.WorktreeSnapshot",
    "templates.Placeholder",
    "typed_output.Answer",
    "workspace.StoredRun",
    "worktrees.CommitResult",
    # plain dataclasses at import until the ninth pass (issue 29)
    "errors.Diagnostic",
    "attempts._Failure",
    "joined.Joined",
)
# The modules whose deferred classes the probe reports (the last part of the name prefixes the class's).
PROBED = (
    "alphred.engine.events",
    "alphred.engine.state",
    "alphred.workflow.model",
    "alphred.store.records",
    "alphred.guards.ast",
    "alphred.guards.explain",
    "alphred.guards.shell",
    "alphred.guards.templates",
    "alphred.providers.base",
    "alphred.git.merges",
    "alphred.git.snapshot",
    "alphred.git.worktrees",
    "alphred.operations.clones",
    "alphred.operations.workspace",
    "alphred.runtime.attempt_context",
    "alphred.runtime.delivery",
    "alphred.runtime.run_files",
    "alphred.runtime.sandbox",
    "alphred.runtime.typed_output",
    "alphred.runtime.attempts",
    "alphred.runtime.persist",
    "alphred.runtime.joined",
    "alphred.views.progress",
    "alphred.errors",
)
# The child process: the scripted provider's first call writes the loaded modules, then the run goes on.
AT_FIRST_CALL = """\
import importlib, json, sys
from alphred.providers.scripted import ScriptedProvider
target, probed = sys.argv[1], sys.argv[2].split(",")
original = ScriptedProvider.run
def first_call(self, prompt, options):
    if not getattr(first_call, "seen", False):
        first_call.seen = True
        made = {}  # how each class is made: bare (not yet), source (from alphred/lazy/made.py) or dataclass
        for module in map(importlib.import_module, probed):
            for name, cls in vars(module).items():
                if isinstance(cls, type) and cls.__module__ == module.__name__ and (
                    {"__deferred_dataclass__", "__dataclass_fields__"} & set(vars(cls))
                ):
                    init = vars(cls)["__init__"].__code__.co_filename
                    level = "source" if init.endswith("made.py") else "dataclass"
                    made[module.__name__.rsplit(".", 1)[1] + "." + name] = (
                        level if "__dataclass_fields__" in vars(cls) else "bare"
                    )
        from alphred.store import schema
        tables = sorted(name for name in vars(schema) if (name in schema._TABLES or name == "METADATA"))
        with open(target, "w") as out:
            json.dump({"modules": sorted(sys.modules), "made": made, "tables": tables}, out)
    return original(self, prompt, options)
ScriptedProvider.run = first_call
sys.argv = ["alphred", *sys.argv[3:]]
from alphred.cli import main
main()
"""
AGENT = """\
phases:
  first:
    provider: scripted
    prompt: go
    script: [{report: done}]
"""


def at_first_call(repo: Path, tmp_path: Path) -> dict[str, Any]:
    """What ``AT_FIRST_CALL`` saw of ``alphred run`` of the one agent phase (which then completes)."""
    wf = workflow(repo, AGENT)
    seen = tmp_path / "modules.json"
    done = subprocess.run(
        [sys.executable, "-c", AT_FIRST_CALL, str(seen), ",".join(PROBED), "run", str(wf), "--quiet", "--repo", str(repo)],
        env=base_env(repo.parent), cwd=repo, capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    found: dict[str, Any] = json.loads(seen.read_text())
    return found


def test_a_one_agent_run_loads_none_of_what_its_start_does_not_use(repo: Path, tmp_path: Path) -> None:
    """Up to its first provider call, ``alphred run`` of one agent phase imports no module of another kind of
    phase, of sub-workflows, of resuming or of the attempt's end; the run then completes as before."""
    loaded = set(at_first_call(repo, tmp_path)["modules"])
    assert "alphred.runtime.runner" in loaded and "alphred.store.sql_store" in loaded  # the probe saw the start
    assert sorted(loaded.intersection(OFF_THE_START_PATH)) == []
    runs = alphred(repo, "runs", "--json")
    assert '"status": "completed"' in runs.stdout


def test_a_one_agent_run_makes_the_engine_classes_it_meets_and_no_others(repo: Path, tmp_path: Path) -> None:
    """Up to its first provider call, ``alphred run`` of one agent phase has made only the engine and model
    classes it made an instance of, each from ``alphred/lazy/made.py`` (none by dataclass's ``exec``s: ~3.4 M
    instructions a class, against ~0.2 M)."""
    made = at_first_call(repo, tmp_path)["made"]
    assert made["events.RunStarted"] == made["events.StartPhase"] == made["state.RunState"] == "source"
    assert made["model.Phase"] == made["model.Workflow"] == "source"
    assert made["records.RunRecord"] == made["base.ProviderOptions"] == made["attempt_context.PhaseContext"] == "source"
    assert made["persist.Persister"] == made["attempts.Active"] == "source"
    assert {name: made[name] for name in NOT_MADE_AT_THE_START} == dict.fromkeys(NOT_MADE_AT_THE_START, "bare")
    assert sorted(name for name, level in made.items() if level == "dataclass") == []


def test_a_one_agent_run_builds_only_the_tables_its_start_uses(repo: Path, tmp_path: Path) -> None:
    """Up to its first provider call, ``alphred run`` of one agent phase has not built the Core tables of the
    registry, the queue's workers, stored files' chunks or memories, nor those of what a phase leaves behind
    (events, artifacts, routing, diagnostics, process groups, the topology's edges): ``store/schema.py`` builds a
    table on first use; those it uses are built (the run, its phases, the topology's nodes, the run's files). The first run made the
    database (its migrations build every table), as a user's first run does; the second is measured."""
    at_first_call(repo, tmp_path)
    tables = set(at_first_call(repo, tmp_path)["tables"])
    assert {"WORKFLOW_RUNS", "RUN_NODES", "WORKFLOW_TREES", "TREE_NODES", "RUN_FILES"} <= tables
    unused = {"REPOSITORIES", "WORKERS", "FILE_CHUNKS", "MEMORIES", "MEMORY_FILES", "RUN_MEMORIES", "METADATA"}
    # what a phase leaves behind, its process groups and the topology's edges: written or read after the first
    # provider call (issue 29, ninth pass: history.py, event_rows.py, processes.py, topology.py built them at import)
    unused |= {"RUN_NODE_STREAM_EVENTS", "PHASE_ARTIFACTS", "ROUTING_DECISIONS", "RUN_NODE_DIAGNOSTICS"}
    unused |= {"RUN_PROCESSES", "TREE_EDGES", "GUARD_DEFINITIONS"}
    assert sorted(tables & unused) == []


def test_the_start_path_does_not_load_the_pull_request_package() -> None:
    """The modules ``alphred run`` imports before its first step, and the plan of a run without a pull
    request, leave ``alphred.scm`` alone (it is loaded where a pull request is opened); and those it imports
    before its intent leave the runner out (~40 modules: they load on a thread while ``git worktree add`` runs,
    ``operations.start.create_run``, ``lazy.imported_meanwhile``)."""
    probe = (
        "import sys\n"
        "import alphred.cli.run_cmds, alphred.operations.ci_wait, alphred.operations.start\n"
        "import alphred.operations.registration, alphred.views.pull_request\n"
        "from pathlib import Path\n"
        "from alphred.runtime.delivery import plan_pull_request\n"
        "from alphred.providers import default_registry\n"
        "from alphred.workflow import load_workflow\n"
        "text = 'alphred: 1\\nkey: w\\nphases:\\n  a: {type: command, run: echo}\\n'\n"
        "wf = load_workflow('w.yaml', text, providers=default_registry())\n"
        "plan = plan_pull_request(wf, Path('.'), {}, pr=None, remote=None, draft=False, run_base_ref=None,"
        " dry_run=False)\n"
        "from alphred.operations.start import DRIVE_MODULES\n"
        "print(plan, 'alphred.scm' in sys.modules, DRIVE_MODULES[0] in sys.modules, DRIVE_MODULES)\n"
    )
    assert probe_words(probe) == ["None", "False", "False", "('alphred.runtime.runner',)"]


def test_run_git_quotes_git_and_returns_its_output(repo: Path) -> None:
    env = git_environment()
    found = run_git(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], repo, env)
    assert found.returncode == 0 and len(found.stdout.strip()) in (40, 64) and found.stdout.endswith(b"\n")
    missing = run_git(["rev-parse", "--verify", "no-such-ref"], repo, env, check=False)
    assert missing.returncode == 128 and missing.stdout == b""
    assert missing.stderr.startswith(b"fatal: ") and not missing.stderr.endswith(b"\n")
    with pytest.raises(GitError) as caught:
        run_git(["rev-parse", "--verify", "no-such-ref"], repo, env)
    assert not isinstance(caught.value, GitLockedError)
    assert str(caught.value.message).startswith("`git rev-parse --verify` failed (exit 128): fatal: ")


def test_run_git_speaks_english_and_keeps_hooks_off(repo: Path, tmp_path: Path) -> None:
    """``LANGUAGE=C``/``LC_ALL=C`` reach git unless the caller sets them, and a repository's hooks never
    run (``core.hooksPath=/dev/null``)."""
    hooks = repo / ".git" / "hooks"
    hooks.mkdir(exist_ok=True)
    marker = tmp_path / "hook-ran"
    (hooks / "pre-commit").write_text(f"#!/bin/sh\ntouch {marker}\n")
    (hooks / "pre-commit").chmod(0o755)
    env = {k: v for k, v in git_environment().items() if k not in ("LC_ALL", "LANGUAGE")}
    (repo / "x.txt").write_text("x\n")
    run_git(["add", "x.txt"], repo, env)
    identity = {
        f"GIT_{role}_{part}": value
        for role in ("AUTHOR", "COMMITTER")
        for part, value in (("NAME", "a"), ("EMAIL", "a@b"))
    }
    run_git(["commit", "-q", "-m", "x"], repo, {**env, **identity})
    assert not marker.exists()
    said = run_git(["-c", "alias.loc=!echo $LC_ALL/$LANGUAGE", "loc"], repo, env)
    assert said.stdout.strip() == b"C/C"
    kept = run_git(["-c", "alias.loc=!echo $LC_ALL", "loc"], repo, {**env, "LC_ALL": "C.UTF-8"})
    assert kept.stdout.strip() == b"C.UTF-8"


def test_run_git_without_git_is_a_git_error(repo: Path, tmp_path: Path) -> None:
    env = {**git_environment(), "PATH": str(tmp_path)}
    with pytest.raises(GitError, match="git is not installed or not on PATH"):
        run_git(["status"], repo, env)
    assert os.environ.get("PATH") != str(tmp_path)  # the process's own PATH is left alone


def test_the_read_records_load_on_first_use_from_every_name_they_had() -> None:
    """``store/read_records.py`` is off the start path, yet its records are still what ``alphred.store`` and
    ``alphred.store.records`` give, and an unknown name is still an ``AttributeError``."""
    probe = (
        "import sys\n"
        "import alphred.store, alphred.store.records, alphred.store.sql_store\n"
        "print('alphred.store.read_records' in sys.modules)\n"
        "from alphred.store import StepRecord\n"
        "from alphred.store.records import Candidate, RepositoryRecord\n"
        "from alphred.store import read_records\n"
        "print(StepRecord is read_records.StepRecord, Candidate is read_records.Candidate,"
        " RepositoryRecord is read_records.RepositoryRecord, alphred.store.records.EventRecord is read_records.EventRecord)\n"
        "try:\n"
        "    alphred.store.records.NoSuchRecord\n"
        "except AttributeError as error:\n"
        "    print(type(error).__name__)\n"
    )
    assert probe_words(probe) == ["False", "True", "True", "True", "True", "AttributeError"]


def test_the_optional_blocks_types_load_on_first_use_from_every_name_they_had() -> None:
    """``workflow/options.py`` loads only for a file that uses one of its blocks; its types are still what
    ``alphred.workflow`` and ``alphred.workflow.model`` give."""
    probe = (
        "import sys\n"
        "from alphred.providers import default_registry\n"
        "from alphred.workflow import load_workflow\n"
        "plain = 'alphred: 1\\nkey: w\\nphases:\\n  a: {type: command, run: echo}\\n'\n"
        "load_workflow('w.yaml', plain, providers=default_registry())\n"
        "print('alphred.workflow.options' in sys.modules)\n"
        "rich = plain + 'inputs: {x: {default: y}}\\n'\n"
        "wf = load_workflow('w.yaml', rich, providers=default_registry())\n"
        "import alphred.workflow, alphred.workflow.model\n"
        "from alphred.workflow import options\n"
        "print(type(wf.inputs[0]) is options.InputSpec is alphred.workflow.InputSpec,"
        " alphred.workflow.model.ToolPolicy is options.ToolPolicy, wf.inputs[0].default)\n"
    )
    assert probe_words(probe) == ["False", "True", "True", "y"]


def test_a_lease_owners_token_is_eight_hex_digits_and_fresh_each_time() -> None:
    """``LeaseOwner.current`` draws its token from ``os.urandom`` (as ``secrets.token_hex(4)`` did)."""
    from alphred.store.owners import LeaseOwner

    tokens = {LeaseOwner.current().token for _ in range(20)}
    assert len(tokens) > 1
    assert all(len(token) == 8 and int(token, 16) >= 0 for token in tokens)


def test_the_collector_is_paused_for_the_start_and_restored_after() -> None:
    """``collector_paused`` turns the cyclic collector off for its block and back to how it was, errors too."""
    import gc

    from alphred.cli.main import collector_paused

    assert gc.isenabled()
    with pytest.raises(RuntimeError), collector_paused():
        assert not gc.isenabled()
        raise RuntimeError("boom")
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # a caller's own pause is left as it was
    finally:
        gc.enable()


FROZEN_PROBE = """\
import gc, sys
from alphred.cli.main import collector_paused, own_process
with collector_paused():
    pass
before = gc.get_freeze_count()
if sys.argv[1] == "own":
    own_process()
with collector_paused():
    kept = [object() for _ in range(10)], {"a": [1]}
print(before, gc.get_freeze_count(), gc.isenabled())
"""


@pytest.mark.parametrize("kind", ["in-process", "own"])
def test_only_the_commands_own_process_freezes_what_its_start_made(kind: str) -> None:
    """The console script (``own_process``) freezes the start's objects when the collector resumes (issue 29); an
    in-process caller (click's test runner, a host program) never does: its cyclic garbage would be kept for good."""
    probe = subprocess.run([sys.executable, "-c", FROZEN_PROBE, kind], capture_output=True, text=True, check=True)
    before, after, enabled = probe.stdout.split()
    assert before == "0" and enabled == "True"
    assert (int(after) > 0) is (kind == "own")


def probe_words(probe: str) -> list[str]:
    """What ``probe`` prints in a fresh interpreter, split into words (it must exit 0)."""
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_imported_meanwhile_imports_on_its_own_thread_by_the_blocks_end(tmp_path: Path) -> None:
    """The modules load on a thread of their own, and are loaded when the block ends; a module whose import
    fails there is left out, without an error, and raises where the caller imports it itself."""
    (tmp_path / "probe_quiet.py").write_text("import threading\nTHREAD = threading.current_thread().name\n")
    (tmp_path / "probe_broken.py").write_text("raise ValueError('broken module')\n")
    probe = (
        "import sys, threading\n"
        f"sys.path.insert(0, {str(tmp_path)!r})\n"
        "from alphred.lazy import imported_meanwhile\n"
        "with imported_meanwhile('probe_broken', 'probe_quiet'):\n"
        "    pass\n"
        "print(sys.modules['probe_quiet'].THREAD, 'probe_broken' in sys.modules, threading.active_count())\n"
        "try:\n"
        "    import probe_broken\n"
        "except ValueError as error:\n"
        "    print(error)\n"
    )
    assert probe_words(probe) == ["alphred-imports", "False", "1", "broken", "module"]


# The child process: ``alphred run`` with a finder that notes every module imported while the runner's modules
# load on their own thread (``create_run``'s ``imported_meanwhile`` block), by the main thread or another.
MAIN_THREAD_IMPORTS = """\
import contextlib, json, sys, threading
import alphred.operations.start as start
target = sys.argv[1]
noted = {"during": [], "blocks": 0, "thread": []}
class Noting:
    active = False
    def find_spec(self, name, path=None, target_module=None):
        if Noting.active:
            on_main = threading.current_thread() is threading.main_thread()
            noted["during" if on_main else "thread"].append(name)
        return None
sys.meta_path.insert(0, Noting())
original = start.imported_meanwhile
@contextlib.contextmanager
def imported_meanwhile(*names):
    noted["blocks"] += 1
    Noting.active = True  # before the thread starts: every import of the block's time is noted
    try:
        with original(*names):
            yield
    finally:
        Noting.active = False
        with open(target, "w") as out:
            json.dump(noted, out)
start.imported_meanwhile = imported_meanwhile
sys.argv = ["alphred", *sys.argv[2:]]
from alphred.cli import main
main()
"""


def test_the_main_thread_imports_nothing_while_the_runner_loads_beside_git(repo: Path, tmp_path: Path) -> None:
    """While ``git worktree add`` runs, the runner's modules load on a thread of their own
    (``lazy.imported_meanwhile``); the main thread must import nothing meanwhile: two threads importing at once
    may meet in a circular import and one of them get a module half made. The run then completes."""
    wf = workflow(repo, AGENT)
    seen = tmp_path / "imports.json"
    done = subprocess.run(
        [sys.executable, "-c", MAIN_THREAD_IMPORTS, str(seen), "run", str(wf), "--quiet", "--repo", str(repo)],
        env=base_env(repo.parent), cwd=repo, capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    noted = json.loads(seen.read_text())
    assert noted["blocks"] == 1
    assert "alphred.runtime.runner" in noted["thread"]  # the probe saw the thread's imports
    assert noted["during"] == []
