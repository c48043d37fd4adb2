"""A provider added by one file plus one entry point: the example of docs/providers.md ("Adding a provider"),
installed as a plugin, brings its keys to ``validate`` and ``schema``, runs, and cannot take a built-in name."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

IMPOSTOR = '''\
"""A plugin that claims the name of a built-in provider: never loaded."""

raise RuntimeError("the impostor plugin was imported")
'''


def docs_example() -> str:
    """The ``alphred_echo.py`` block of docs/providers.md, as written there."""
    text = (ROOT / "docs" / "providers.md").read_text(encoding="utf-8")
    match = re.search(r"```python\n# alphred_echo\.py\n(.*?)```", text, re.S)
    assert match, "docs/providers.md lost its alphred_echo.py example"
    return match.group(1)


def install(site: Path, name: str, module: str, source: str, entry_points: str) -> None:
    """Install a distribution the way pip would: a module plus its ``.dist-info`` with entry points."""
    (site / f"{module}.py").write_text(source)
    info = site / f"{name.replace('-', '_')}-1.0.dist-info"  # as pip names it: the stem up to "-" is the name
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[alphred.providers]\n{entry_points}\n")


def world(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    site = tmp_path / "site"
    site.mkdir()
    install(site, "alphred-echo", "alphred_echo", docs_example(), "echo = alphred_echo:ECHO")
    install(site, "impostor", "impostor", IMPOSTOR, "scripted = impostor:SCRIPTED")
    repo = tmp_path / "repo"
    repo.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "ALPHRED_"))}
    env.update(
        HOME=str(tmp_path),
        GIT_CONFIG_GLOBAL="/dev/null",
        PYTHONPATH=os.pathsep.join([str(ROOT), str(site)]),
        GIT_AUTHOR_NAME="T",
        GIT_AUTHOR_EMAIL="t@example.invalid",
        GIT_COMMITTER_NAME="T",
        GIT_COMMITTER_EMAIL="t@example.invalid",
    )
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True, env=env)
    subprocess.run(["git", "commit", "-q", "--allow-empty", "-m", "init"], cwd=repo, check=True, env=env)
    return repo, env


def alphred(repo: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "alphred", *args]
    return subprocess.run(command, cwd=repo, env=env, capture_output=True, text=True, timeout=120)


def test_a_plugin_provider_is_one_file_plus_one_entry_point(tmp_path: Path) -> None:
    repo, env = world(tmp_path)
    listed = {p["name"]: p for p in json.loads(alphred(repo, env, "providers", "--json").stdout)}
    assert listed["echo"]["ready"] and listed["echo"]["detail"] == "no credentials needed"
    assert listed["scripted"]["detail"] == "offline, no credentials needed"  # Alphred's, not the impostor's

    schema = json.loads(alphred(repo, env, "schema").stdout)
    (variant,) = [v for v in schema["$defs"]["phase"]["oneOf"] if v["title"] == "agent phase (echo)"]
    assert variant["properties"]["provider"] == {"const": "echo"} and variant["properties"]["prefix"] == STRING
    assert schema["properties"]["defaults"]["properties"]["prefix"] == STRING

    bad = tmp_path / "bad.yaml"
    bad.write_text(
        textwrap.dedent(
            """\
            alphred: 1
            key: bad
            phases:
              ask:
                provider: echo
                prefx: "> "
            """
        )
    )
    refused = alphred(repo, env, "validate", str(bad))
    assert refused.returncode == 2
    assert refused.stderr.splitlines() == [
        f"{bad}:4:3: error: echo phase 'ask' needs a prompt",
        f"{bad}:6:5: error: unknown key 'prefx' in agent phase (echo) 'ask' (did you mean 'prefix'?)",
    ]

    good = tmp_path / "good.yaml"
    good.write_text(
        textwrap.dedent(
            """\
            alphred: 1
            key: good
            defaults: {prefix: "> "}
            phases:
              ask:
                provider: echo
                prompt: hello plugin
                decisions: [approved]
                transitions:
                  - {to: $end, when: decision == "approved"}
            """
        )
    )
    ran = alphred(repo, env, "run", str(good), "--json")
    assert ran.returncode == 0, ran.stderr
    status = json.loads(ran.stdout)
    assert [(s["phase"], s["outcome"]) for s in status["steps"]] == [("ask", "completed")]
    shown = alphred(repo, env, "logs", str(status["run_id"]), "--phase", "ask")
    assert "> hello plugin" in shown.stdout, shown.stdout + shown.stderr


STRING = {"type": "string"}


def test_validate_and_help_import_no_sdk_and_no_adapter(tmp_path: Path) -> None:
    """Descriptors only: the adapters (and the SDKs behind them) load when a phase runs or a preflight checks."""
    code = textwrap.dedent(
        """\
        import sys
        from alphred.cli import main
        for args in (["--help"], ["validate", *sys.argv[1:]]):
            sys.argv = ["alphred", *args]
            try:
                main()
            except SystemExit as exc:
                assert exc.code == 0, exc.code
        loaded = [m for m in sys.modules if m.startswith(("claude_agent_sdk", "openai", "sqlmodel", "sqlalchemy"))]
        adapters = ("alphred.providers.claude", "alphred.providers.codex", "alphred.providers.openai")
        loaded += [m for m in adapters if m in sys.modules]
        assert not loaded, loaded
        """
    )
    files = [ROOT / "workflows" / "design-implement-review.yaml"]  # claude and codex
    files += [ROOT / "tests" / "fixtures" / "workflows" / "openai-local.yaml"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code, *map(str, files)], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
