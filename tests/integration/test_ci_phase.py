"""``type: ci`` (SPEC §16): a durable wait for the pull request's checks — paused, holding nothing — looked at
again by the foreground run, ``resume`` or a worker; the bundled ``fix-until-green`` template loops fix → push →
wait until green, offline, against a stateful fake ``gh``."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml
from helpers.processes import run_alphred
from helpers.scm import ScmWorld, make_world, phase_reports

from alphred.scm.checks import LOG_TAIL_CHARS, PullRequestCheck, failed_log_tail

ROOT = Path(__file__).resolve().parents[2]
RUN_LINK = "https://github.com/acme/widgets/actions/runs/901/job/77"


def check(name: str, bucket: str, link: str = RUN_LINK) -> dict[str, Any]:
    return {"name": name, "state": bucket.upper(), "bucket": bucket, "link": link, "workflow": "CI"}


def alphred(world: ScmWorld, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return run_alphred(*args, "--repo", str(world.repo), env={**(env or world.env), "PYTHONPATH": str(ROOT)})


def with_checks(world: ScmWorld, rounds: list[list[dict[str, Any]]], **more: str) -> dict[str, str]:
    """The environment whose fake gh answers ``pr checks`` with ``rounds``, one per look."""
    path = world.root / "checks.json"
    path.write_text(json.dumps(rounds))
    return {**world.env, "FAKE_GH_CHECKS": str(path), **more}


def offline_template(world: ScmWorld, poll: str = "0.05") -> Path:
    """``fix-until-green`` as bundled, with scripted agents (the implement and fix each write a file)."""
    data = yaml.safe_load((ROOT / "workflows" / "fix-until-green.yaml").read_text())
    data["defaults"]["provider"] = "scripted"
    phases = data["phases"]
    for key in ("implement", "fix"):
        phases[key].pop("permission_mode")
    phases["implement"]["script"] = [{"report": "Added the feature.", "files": {"feature.py": "x = 1\n"}}]
    phases["fix"]["script"] = [{"report": "Fixed test_add.", "files": {"feature.py": "x = 2\n"}}]
    phases["ci"]["poll"] = poll
    path = world.root / "fix-until-green.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def reports(world: ScmWorld, run_id: int, phase: str) -> list[Any]:
    return phase_reports(world.repo, run_id, phase)


def gh_calls(world: ScmWorld, *words: str) -> list[list[str]]:
    return [c["argv"] for c in world.calls() if c["argv"][: len(words)] == list(words)]


def test_fix_until_green_loops_fix_push_wait_until_ci_passes(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    rounds = [[check("test", "pending")], [check("test", "fail"), check("lint", "pass")]]
    rounds += [[check("test", "pending")], [check("test", "pass"), check("lint", "pass")]]
    log = "test\tRun pytest\tusing token s3cr3t-deploy-value-42\ntest\tRun pytest\tFAILED tests/test_app.py::test_add\n"
    env = with_checks(world, rounds, FAKE_GH_RUN_LOG=log, DEPLOY_TOKEN="s3cr3t-deploy-value-42")
    result = alphred(world, "run", str(offline_template(world)), "-i", "task=Add x", "--json", env=env)
    assert result.returncode == 0, result.stderr
    status = json.loads(result.stdout)
    assert (status["status"], status["pr_url"]) == ("completed", "https://github.com/acme/widgets/pull/42")
    assert [s["phase"] for s in status["steps"]] == ["implement", "open_pr", "ci", "fix", "open_pr", "ci"]
    assert len(gh_calls(world, "pr", "create")) == 1 and len(gh_calls(world, "pr", "edit")) == 1  # one PR
    assert len(gh_calls(world, "pr", "checks")) == 4  # two looks per wait: the waits were resumed, not new steps
    assert gh_calls(world, "run", "view") == [["run", "view", "901", "--log-failed", "--job", "77"]]
    first, second = reports(world, 1, "ci")
    assert first == {
        "state": "failed",
        "failed": [
            {
                "name": "CI / test",
                "url": RUN_LINK,
                "log_tail": "test\tRun pytest\tusing token [REDACTED]\ntest\tRun pytest\tFAILED tests/test_app.py::test_add",
            }
        ],
    }
    assert second == {"state": "passed", "failed": []}
    assert "waiting for CI on alphred/fix-until-green/1: 1 pending" in result.stderr
    assert world.remote_sha(status["branch"]) == status["head"]  # the fix was pushed to the same pull request


def test_a_wait_past_the_timeout_reports_timeout(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    env = with_checks(world, [[check("test", "pending")]])
    path = offline_template(world)
    path.write_text(path.read_text().replace("timeout: 60m", "timeout: 0.3"))
    result = alphred(world, "run", str(path), "-i", "task=Add x", "--json", env=env)
    assert result.returncode == 1, result.stderr
    status = json.loads(result.stdout)
    assert (status["status"], status["reason"]) == ("failed", "fail_target")
    assert reports(world, 1, "ci")[-1] == {"state": "timeout", "failed": []}


def test_the_wait_survives_kill_9_and_a_worker_takes_it_up(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    env = with_checks(world, [[check("test", "pending")], [check("test", "pass")]])
    path = offline_template(world)
    killed = alphred(world, "run", str(path), "-i", "task=Add x", env={**env, "ALPHRED_CRASH_AT": "waiting_for_ci"})
    assert killed.returncode in (-9, 137), killed.stderr
    shown = alphred(world, "status", "1", "--json", env=env)
    waiting = json.loads(shown.stdout)
    assert (waiting["status"], waiting["reason"]) == ("paused", "waiting_for_ci")
    with sqlite3.connect(world.repo / ".alphred" / "alphred.db") as db:
        (owner,) = db.execute("SELECT lease_owner FROM workflow_runs WHERE id = 1").fetchone()
    assert owner is None  # waiting holds no lease: nothing to take over from a dead process
    worker = alphred(world, "worker", "--once", "--poll", "0.05", env=env)
    assert worker.returncode == 0, worker.stderr
    done = json.loads(alphred(world, "status", "1", "--json", env=env).stdout)
    assert (done["status"], done["pr_url"]) == ("completed", "https://github.com/acme/widgets/pull/42")
    assert [s["phase"] for s in done["steps"]] == ["implement", "open_pr", "ci"]
    assert reports(world, 1, "ci") == [{"state": "passed", "failed": []}]
    assert len(gh_calls(world, "pr", "checks")) == 2 and len(gh_calls(world, "pr", "create")) == 1


def test_resume_looks_again_and_the_closing_block_says_the_run_waits(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    rounds = [
        [check("test", "pending")],
        [check("test", "pending")],
        [check("lint", "fail", "")],
        [check("lint", "pass")],
    ]
    env = with_checks(world, rounds)
    path = offline_template(world)
    killed = alphred(world, "run", str(path), "-i", "task=Add x", env={**env, "ALPHRED_CRASH_AT": "waiting_for_ci"})
    assert killed.returncode in (-9, 137)
    shown = alphred(world, "status", "1", env=env)
    assert "waiting_for_ci" in shown.stdout and "next: alphred resume 1" in shown.stdout
    again = alphred(world, "resume", "1", "--json", env={**env, "ALPHRED_CRASH_AT": "waiting_for_ci"})
    assert again.returncode in (-9, 137), again.stderr  # the resume looked (still pending) and followed the wait again
    assert "ci: waiting for CI on alphred/fix-until-green/1: 1 pending; next look in 0.05s" in again.stderr
    last = alphred(world, "resume", "1", "--json", env=env)
    assert last.returncode == 0, last.stderr
    status = json.loads(last.stdout)
    assert [s["phase"] for s in status["steps"]] == ["implement", "open_pr", "ci", "fix", "open_pr", "ci"]
    assert reports(world, 1, "ci")[0] == {
        "state": "failed",
        "failed": [{"name": "CI / lint", "url": "", "log_tail": ""}],
    }


def test_ctrl_c_while_waiting_leaves_the_run_waiting(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    env = with_checks(world, [[check("test", "pending")]])
    path = offline_template(world, poll="10m")
    command = [sys.executable, "-m", "alphred", "run", str(path), "-i", "task=Add x", "--repo", str(world.repo)]
    process = subprocess.Popen(
        command, env={**env, "PYTHONPATH": str(ROOT)}, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert process.stderr is not None
    seen = []
    for line in process.stderr:  # the foreground run says when it starts sleeping until its next look
        seen.append(line)
        if "(Ctrl+C leaves it waiting)" in line:
            break
    process.send_signal(signal.SIGINT)
    _, rest = process.communicate(timeout=120)
    said = "".join(seen) + rest
    assert process.returncode == 4, said
    assert "run 1 keeps waiting for CI: `alphred resume 1` or a worker looks again" in said
    assert "phase ci waits for the pull request's checks, holding nothing; its next look at " in said
    status = json.loads(alphred(world, "status", "1", "--json", env=env).stdout)
    assert (status["status"], status["reason"]) == ("paused", "waiting_for_ci")


def test_a_run_waiting_for_ci_can_be_cancelled(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    env = with_checks(world, [[check("test", "pending")]])
    killed = alphred(
        world,
        "run",
        str(offline_template(world)),
        "-i",
        "task=Add x",
        env={**env, "ALPHRED_CRASH_AT": "waiting_for_ci"},
    )
    assert killed.returncode in (-9, 137)
    cancelled = alphred(world, "cancel", "1", env=env)
    assert cancelled.returncode in (0, 3), cancelled.stderr
    status = json.loads(alphred(world, "status", "1", "--json", env=env).stdout)
    assert status["status"] == "cancelled"
    assert alphred(world, "worker", "--once", "--poll", "0.05", env=env).returncode == 0
    assert len(gh_calls(world, "pr", "checks")) == 1  # nobody looks at a cancelled run's checks again


def test_a_failed_log_is_cut_to_its_tail(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    env = {**world.env, "FAKE_GH_RUN_LOG": "".join(f"line {n}\n" for n in range(2000))}
    tail = failed_log_tail(world.repo, str(world.origin), env, PullRequestCheck("test", "fail", RUN_LINK))
    assert len(tail) == LOG_TAIL_CHARS and tail.startswith("…") and tail.endswith("line 1999")
    outside = PullRequestCheck("external", "fail", "https://ci.example.test/build/5")
    assert failed_log_tail(world.repo, str(world.origin), env, outside) == ""  # not an Actions run: no log
