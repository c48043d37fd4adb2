"""A third-party provider installed through the ``alphred.providers`` entry point group, end to end."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import textwrap
from pathlib import Path

from helpers.processes import run_alphred
from helpers.repos import make_repo, process_env

ROOT = Path(__file__).resolve().parents[2]

PLUGIN = '''\
"""A third-party provider: echoes its options back, optionally breaking the event contract."""

from alphred.providers import EventType, ProviderEvent, Readiness, result_event


class EchoProvider:
    name = "echo"

    def check(self):
        return Readiness(True, "always ready")

    async def run(self, prompt, options):
        settings = dict(options.settings.get("options") or {})
        yield ProviderEvent(EventType.ASSISTANT, f"echo: {prompt}")
        yield result_event(f"echoed {len(prompt)} chars", settings.get("decision"), {"seen": prompt})
        if settings.get("misbehave"):
            yield ProviderEvent(EventType.ASSISTANT, "an event after the result")
'''


def install_plugin(site: Path) -> None:
    """Install a distribution the way pip would: a package plus its ``.dist-info`` with entry points."""
    (site / "echo_plugin").mkdir(parents=True)
    (site / "echo_plugin" / "__init__.py").write_text(PLUGIN)
    info = site / "echo_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: echo-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[alphred.providers]\necho = echo_plugin:EchoProvider\n")


def test_entry_point_provider_runs_and_is_held_to_the_contract(tmp_path: Path) -> None:
    site = tmp_path / "site"
    install_plugin(site)
    env = process_env(tmp_path, identity=True, PYTHONPATH=os.pathsep.join([str(ROOT), str(site)]))
    repo = make_repo(tmp_path / "repo", env=env)
    wf = tmp_path / "wf.yaml"
    wf.write_text(
        textwrap.dedent(
            """\
            alphred: 1
            key: plugin
            phases:
              ask:
                provider: echo
                prompt: hello plugin
                options: {decision: approved}
                transitions:
                  - {to: strict, when: decision == "approved" and report.seen == "hello plugin"}
              strict:
                provider: echo
                options: {decision: approved, misbehave: true}
            """
        )
    )

    def alphred(*args: str) -> subprocess.CompletedProcess[str]:
        return run_alphred(*args, cwd=repo, env=env)

    listed = json.loads(alphred("providers", "--json").stdout)
    assert {"name": "echo", "ready": True} in [{"name": p["name"], "ready": p["ready"]} for p in listed]
    result = alphred("run", str(wf), "--json")
    status = json.loads(result.stdout)
    assert result.returncode == 1, result.stderr
    assert [(s["phase"], s["outcome"], s["next"]) for s in status["steps"]] == [
        ("ask", "completed", "strict"),
        ("strict", "failed", None),
    ]
    db = sqlite3.connect(repo / ".alphred" / "alphred.db")
    (code,) = db.execute(
        "select d.error_code from run_node_diagnostics d join run_nodes n on n.id = d.run_node_id "
        "where n.node_key = 'strict'"
    ).fetchone()
    db.close()
    assert code == "EVENT_AFTER_RESULT"  # the contract code of alphred.errors
