"""The CLI in this process through click's runner, and a workflow file written for it."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from alphred.cli import app


def cli(*args: str, env: dict[str, str] | None = None) -> Result:
    """``alphred ARGS`` in this process; stdout and stderr kept apart."""
    return CliRunner().invoke(app, list(args), env=env)


def run_json(repo: Path, path: Path) -> tuple[int, dict[str, Any], str]:
    """``alphred run PATH --repo REPO --json`` in this process: (exit code, the status object, stderr)."""
    done = cli("run", str(path), "--repo", str(repo), "--json")
    return done.exit_code, json.loads(done.stdout), done.stderr


def write_workflow(directory: Path, body: str, name: str = "wf.yaml") -> Path:
    """Write workflow ``wf`` (``body`` below its header, dedented) as ``directory/name``."""
    path = directory / name
    path.write_text("alphred: 1\nkey: wf\n" + textwrap.dedent(body))
    return path
