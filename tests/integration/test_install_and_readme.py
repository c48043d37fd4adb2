"""The install works, and the README says what really happens.

A wheel is built from a copy of the source (``python -m build --wheel --no-isolation``), installed into a
fresh virtual environment, and the README's commands are walked in a fresh repository holding the bundled
workflows: the demo's output must match the README's sample (times and commit ids aside), every command
the README lists must succeed, and the paused run must say how to go on. docs/ci.md's install line must
install Alphred from a git URL into a clean environment.

The fresh environments see the dependencies through a ``.pth`` file naming this interpreter's
site-packages (no network), but not this checkout's Alphred: ``import alphred`` must come from the wheel.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # a wheel built and installed into fresh virtual environments

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
CI_DOC = (ROOT / "docs" / "ci.md").read_text()
SOURCE_PARTS = ("alphred", "schemas", "workflows", "pyproject.toml", "README.md")


@dataclass
class Installed:
    """A fresh virtual environment with Alphred installed from a wheel."""

    venv: Path
    wheel: Path
    source: Path

    @property
    def bin(self) -> Path:
        return self.venv / "bin"


def run(args: list[str], cwd: Path, env: dict[str, str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False)


def source_copy(target: Path) -> Path:
    """The project's source (symlinks kept, as in a checkout) in a git repository of its own."""
    target.mkdir(parents=True)
    for part in SOURCE_PARTS:
        origin = ROOT / part
        if origin.is_dir():
            shutil.copytree(origin, target / part, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(origin, target / part)
    git = ["git", "-c", "user.name=T", "-c", "user.email=t@example.invalid"]
    env = clean_env(target)
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "source"]):
        assert run([*git, *args], target, env).returncode == 0
    return target


def clean_env(home: Path, path_first: Path | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "ALPHRED_", "GITHUB_", "CI_", "PYTHON"))}
    env.update(HOME=str(home), GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1", NO_COLOR="1")
    env.pop("COLUMNS", None)
    if path_first is not None:
        env["PATH"] = f"{path_first}{os.pathsep}{env.get('PATH', os.defpath)}"
    return env


def fresh_venv(path: Path) -> Path:
    """A virtual environment without pip that sees this interpreter's installed packages (not its Alphred)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True)
    python = path / "bin" / "python"
    purelib = run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], path, {})
    paths = [sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]]
    paths += [p for p in sys.path if p.endswith(("site-packages", "dist-packages"))]
    ours = list(dict.fromkeys(paths))  # this interpreter's order: its venv's packages before the system's
    Path(purelib.stdout.strip(), "_parent_packages.pth").write_text("\n".join(ours) + "\n")
    return python


def pip_install(python: Path, *requirements: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``pip install`` into ``python``'s environment, offline (this interpreter's pip drives it)."""
    args = [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-index"]
    return run([*args, "--no-build-isolation", *requirements], cwd, clean_env(cwd))


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    pytest.importorskip("build", reason="the dev extra installs `build` (python -m build)")
    root = tmp_path_factory.mktemp("install")
    source = source_copy(root / "source")
    dist = root / "dist"
    built = run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist), str(source)],
        root,
        clean_env(root),
        timeout=300,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = dist.glob("alphred-*.whl")
    python = fresh_venv(root / "venv")
    done = pip_install(python, str(wheel), cwd=root)
    assert done.returncode == 0, done.stderr
    return Installed(root / "venv", wheel, source)


def normalise(text: str) -> list[str]:
    """Lines with times, durations and commit ids replaced, trailing spaces dropped."""
    text = re.sub(r"\[run (\d+) \+\s*\d+\.\d+s\]", r"[run \1 +T]", text)
    text = re.sub(r"\b\d+\.\d+s\b", "Ns", text)
    text = re.sub(r"\b[0-9a-f]{12}\.\.", "SHA..", text)
    return [line.rstrip() for line in text.strip("\n").splitlines()]


def console_blocks(text: str) -> list[list[tuple[str, list[str]]]]:
    """Every ```console block: a list of (command, output lines) for each ``$ `` line."""
    blocks = []
    for body in re.findall(r"```console\n(.*?)```", text, re.S):
        entries: list[tuple[str, list[str]]] = []
        for line in body.splitlines():
            if line.startswith("$ "):
                entries.append((line[2:], []))
            elif entries:
                entries[-1][1].append(line)
        blocks.append(entries)
    return blocks


def sh_commands(text: str, after: str) -> list[str]:
    """The ``alphred`` commands of the first ```sh block after the heading or sentence ``after``."""
    block = re.search(r"```sh\n(.*?)```", text[text.index(after) :], re.S)
    assert block is not None
    lines = [line.split("  #")[0].strip() for line in block.group(1).splitlines()]
    return [line for line in lines if line.startswith("alphred ")]


def test_the_wheel_carries_the_schema_and_templates(installed: Installed, tmp_path: Path) -> None:
    env = clean_env(tmp_path, installed.bin)
    where = run([str(installed.bin / "python"), "-c", "import alphred; print(alphred.__file__)"], tmp_path, env)
    assert Path(where.stdout.strip()).is_relative_to(installed.venv), where.stdout  # not this checkout's
    schema = run(["alphred", "schema"], tmp_path, env)
    assert schema.returncode == 0 and schema.stdout == (ROOT / "schemas" / "workflow.schema.json").read_text()
    init = run(["alphred", "init", "--template", "fix-issue", "mine.yaml"], tmp_path, env)
    assert init.returncode == 0, init.stderr
    assert (tmp_path / "mine.yaml").read_text() == (ROOT / "workflows" / "fix-issue.yaml").read_text()


def test_the_readme_walks_as_written(installed: Installed, tmp_path: Path) -> None:
    checkout = tmp_path / "project"
    checkout.mkdir()
    shutil.copytree(ROOT / "workflows", checkout / "workflows")
    env = clean_env(tmp_path, installed.bin)
    for args in (["init", "-q", "-b", "main"], ["add", "-A"]):
        run(["git", *args], checkout, env)
    run(["git", "-c", "user.name=T", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "init"], checkout, env)

    (demo, gate) = console_blocks(README)[:2]
    ((command, sample),) = demo
    result = run(shlex.split(command), checkout, env)
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""  # progress and closing block on stderr only
    assert normalise(result.stderr) == normalise("\n".join(sample))

    for line in sh_commands(README, "holds one commit per phase"):
        done = run(shlex.split(line), checkout, env)
        assert done.returncode == 0, f"{line}: {done.stderr}"
        assert done.stdout.strip() or done.stderr.strip(), line

    (paused_command, paused_sample), (next_command, _) = gate
    paused = run(shlex.split(paused_command), checkout, env)
    assert paused.returncode == 4, paused.stderr
    tail = paused_sample[paused_sample.index("...") + 1 :]
    assert normalise(paused.stderr)[-len(tail) :] == normalise("\n".join(tail))
    approved = run(shlex.split(next_command), checkout, env)
    assert approved.returncode == 0, approved.stderr
    assert "✓ run 2 completed" in approved.stderr


def test_the_ci_install_line_installs_from_a_git_url(installed: Installed, tmp_path: Path) -> None:
    (line,) = set(re.findall(r'pip install "(alphred\[claude\] @ \$ALPHRED_PIP_SOURCE)"', CI_DOC))
    sources = set(re.findall(r'ALPHRED_PIP_SOURCE: "(git\+https://<repository URL>@<tag>)"', CI_DOC))
    assert len(sources) == 1  # the GitHub and the GitLab example install from the same place
    commit = run(["git", "rev-parse", "HEAD"], installed.source, clean_env(tmp_path)).stdout.strip()
    source = (
        sources.pop()
        .replace("https://<repository URL>", f"file://localhost{installed.source}")
        .replace("<tag>", commit)
    )
    python = fresh_venv(tmp_path / "ci-venv")
    done = pip_install(python, line.replace("$ALPHRED_PIP_SOURCE", source), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    version = run([str(tmp_path / "ci-venv" / "bin" / "alphred"), "--version"], tmp_path, clean_env(tmp_path))
    assert version.stdout.startswith("alphred ")
