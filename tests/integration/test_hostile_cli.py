"""Every bad input is a clear ``Error [CODE]`` or FILE:LINE:COL message with its documented exit code."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import Result
from helpers.cli import cli, write_workflow
from helpers.repos import git

ROOT = Path(__file__).resolve().parents[2]
DEMO = str(ROOT / "workflows" / "demo.yaml")


@pytest.fixture
def repo(repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The shared repository, as the working directory."""
    monkeypatch.chdir(repo)
    return repo


def assert_clear(result: Result, code: int, words: str) -> None:
    assert result.exit_code == code, (result.exit_code, result.stderr)
    assert words in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and "INTERNAL" not in result.stderr


# -- prompt_file ------------------------------------------------------------------------------------------


def agent_workflow(directory: Path, prompt_file: str) -> Path:
    path = directory / "wf.yaml"
    path.write_text(f"alphred: 1\nkey: wf\nphases:\n  a:\n    provider: scripted\n    prompt_file: {prompt_file}\n")
    return path


@pytest.mark.parametrize(
    ("prompt_file", "words"),
    [
        ("../../../../../../etc/passwd", "lies outside the workflow's directory and its repository"),
        ("/etc/passwd", "lies outside"),
        ("/proc/self/environ", "lies outside"),
        ("escape.md", "lies outside"),  # a symlink pointing out of the repository
        ("folder", "is a directory"),
        ("fifo.md", "is not a regular file"),
        ("big.md", "is 1000001 bytes, over the limit of 1000000"),
        ("latin1.md", "is not UTF-8 text"),
    ],
)
def test_prompt_file_must_be_a_small_utf8_regular_file_inside_the_repository(
    repo: Path, tmp_path: Path, prompt_file: str, words: str
) -> None:
    outside = tmp_path / "secret.txt"
    outside.write_text("API_KEY=x\n")
    (repo / "escape.md").symlink_to(outside)
    (repo / "folder").mkdir()
    os.mkfifo(repo / "fifo.md")
    (repo / "big.md").write_text("x" * 1_000_001)
    (repo / "latin1.md").write_bytes("caf\xe9".encode("latin-1"))
    result = cli("validate", str(agent_workflow(repo, prompt_file)))
    assert_clear(result, 2, f"wf.yaml:6:18: error: prompt_file '{prompt_file}' {words}")


def test_prompt_file_may_come_from_elsewhere_in_the_repository(repo: Path) -> None:
    (repo / "prompts").mkdir()
    (repo / "prompts" / "p.md").write_text("Do it\n")
    (repo / "workflows").mkdir()
    (repo / "workflows" / "inside.md").symlink_to(repo / "prompts" / "p.md")
    for name in ("../prompts/p.md", str(repo / "prompts" / "p.md"), "inside.md"):
        result = cli("validate", str(agent_workflow(repo / "workflows", name)))
        assert result.exit_code == 0, result.stderr


@pytest.mark.parametrize("name", ["fifo", "/dev/zero", "dir"])
def test_workflow_files_that_are_not_regular_files_are_refused_at_once(repo: Path, name: str) -> None:
    os.mkfifo(repo / "fifo")
    (repo / "dir").mkdir()
    target = name if name.startswith("/") else str(repo / name)
    result = subprocess.run(
        [sys.executable, "-m", "alphred", "validate", target], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and ("not a regular file" in result.stderr or "directory" in result.stderr)


def test_graph_of_an_invalid_workflow_is_exit_2_with_located_errors(repo: Path) -> None:
    bad = repo / "bad.yaml"
    bad.write_text("alphred: 1\nkey: wf\nphases:\n  a: {provider: scripted, max_visits: !!int x}\n")
    assert_clear(cli("graph", str(bad)), 2, "bad.yaml:4:39: error: YAML not allowed: tags are not allowed")
    assert_clear(cli("graph", str(repo / "missing.yaml")), 2, "file not found")


# -- the command line -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("not a url", "not a database URL"),
        ("foo://", "unsupported database 'foo'"),
        ("mysql://u@h/d", "unsupported database 'mysql'"),
        ("sqlite:////dev/null", "/dev/null is not a regular file"),
        ("sqlite:////tmp/a%00b.db", "contains a NUL byte"),
        ("postgresql+asyncpg://u:pw@h/d", "driver 'asyncpg' is not supported"),
        ("sqlite://", "an in-memory database keeps nothing"),
        ("sqlite:///:memory:", "an in-memory database keeps nothing"),
    ],
)
@pytest.mark.parametrize("command", [("runs",), ("validate", DEMO), ("status", "1"), ("cancel", "1")])
def test_bad_database_urls_are_refused_up_front(repo: Path, url: str, words: str, command: tuple[str, ...]) -> None:
    result = cli(*command, "--db", url)
    assert_clear(result, 2, f"Error [BAD_DATABASE_URL]: --db {url.replace(':pw@', ':***@')}: {words}")
    assert "pw@" not in result.stderr


@pytest.mark.parametrize("name", ['"a\\0b.md"', '"a\\udc80b.md"'])  # YAML escapes: a NUL, a lone surrogate
def test_a_prompt_file_path_that_names_no_file_is_a_clear_error(repo: Path, name: str) -> None:
    path = agent_workflow(repo, name)
    result = cli("validate", str(path))
    assert_clear(result, 2, "is not a usable path")


def test_a_garbled_database_is_a_clear_error_for_the_read_commands(repo: Path) -> None:
    assert cli("run", DEMO).exit_code == 0
    db = repo / ".alphred" / "alphred.db"
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    with open(db, "r+b") as raw:
        raw.seek(0)
        raw.write(bytes(range(256)) * 4)
    for command in (("runs",), ("status", "1"), ("logs", "1"), ("workers",)):
        assert_clear(cli(*command), 1, "Error [DATABASE_CORRUPT]")  # as for every command (below)


def test_status_and_logs_with_no_runs_say_so(repo: Path) -> None:
    for command in (("status",), ("logs",)):
        assert_clear(cli(*command), 2, "Error [UNKNOWN_RUN]: no runs yet (start one with `alphred run FILE`)")


def test_database_url_from_the_environment_is_checked_too(repo: Path) -> None:
    assert_clear(cli("runs", env={"ALPHRED_DATABASE_URL": "mysql://x"}), 2, "Error [BAD_DATABASE_URL]")


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("ALPHRED_DB_BUSY_TIMEOUT", "nan"),
        ("ALPHRED_DB_BUSY_TIMEOUT", "inf"),
        ("ALPHRED_DB_BUSY_TIMEOUT", "-1"),
        ("ALPHRED_LEASE_TTL", "inf"),
        ("ALPHRED_LEASE_TTL", "0"),
        ("ALPHRED_RETRY_BASE_SECONDS", "1e999"),
    ],
)
def test_bad_numeric_settings_are_refused_before_anything_runs(repo: Path, name: str, value: str) -> None:
    assert_clear(cli("runs", env={name: value}), 2, f"Error [BAD_SETTING]: {name} must be a number of seconds")


@pytest.mark.parametrize(
    "args", [("status", str(2**63)), ("logs", str(2**63)), ("cancel", str(2**64)), ("runs", "--limit", str(2**63))]
)
def test_run_ids_and_limits_beyond_what_sql_stores_are_usage_errors(repo: Path, args: tuple[str, ...]) -> None:
    assert_clear(cli(*args), 2, "is not in the range 1<=x<=9223372036854775807")


def test_a_ref_as_branch_name_is_refused(repo: Path) -> None:
    assert_clear(cli("run", DEMO, "--branch", "refs/heads/main"), 2, "--branch takes a branch name, not a ref")
    assert git(repo, "for-each-ref", "--format=%(refname)") == "refs/heads/main"


@pytest.mark.parametrize(
    ("name", "content", "words"),
    [
        ("latin1.yaml", "greeting: caf\xe9".encode("latin-1"), "is not UTF-8 text"),
        ("deep.yaml", b"greeting: " + b"[" * 30_000, "nested deeper than 64 levels"),
        ("deep.json", b"[" * 100_000, "nested too deeply"),
        ("tagged.yaml", b"greeting: !!python/name:os.system x", "tags are not allowed"),
        ("huge.json", b'{"greeting": ' + b"9" * 5000 + b"}", "is not valid JSON"),
    ],
)
def test_bad_input_files_are_usage_errors(repo: Path, name: str, content: bytes, words: str) -> None:
    (repo / name).write_bytes(content)
    assert_clear(cli("run", DEMO, "--input-file", name), 2, words)


def test_input_file_that_is_a_device_is_refused_at_once(repo: Path) -> None:
    assert_clear(cli("run", DEMO, "--input-file", "/dev/zero"), 2, "is not a regular file")


def garble(database: Path, first_page: int) -> None:
    data = bytearray(database.read_bytes())
    for offset in range(4096 * first_page, len(data), 4096):
        data[offset + 16 : offset + 4000] = bytes((i * 7 + 3) % 256 for i in range(3984))
    database.write_bytes(bytes(data))


@pytest.mark.parametrize("first_page", [1, 3])
def test_a_garbled_sqlite_file_is_database_corrupt(repo: Path, first_page: int) -> None:
    assert cli("run", DEMO, "--dry-run", "-q").exit_code in (0, 1)
    garble(repo / ".alphred" / "alphred.db", first_page)
    for args in (("runs",), ("runs", "--json"), ("status", "1"), ("logs", "1"), ("cancel", "1")):
        assert_clear(cli(*args), 1, "Error [DATABASE_CORRUPT]")


def test_every_command_on_a_file_that_is_not_a_database_is_database_corrupt_exit_1_as_documented(repo: Path) -> None:
    (repo / ".alphred").mkdir()
    (repo / ".alphred" / "alphred.db").write_bytes(bytes(range(256)) * 32)
    commands = [
        ("run", DEMO), ("run", DEMO, "--dry-run"), ("submit", DEMO), ("runs",), ("status",), ("status", "1"),
        ("logs", "1"), ("workers",), ("resume", "1"), ("retry", "1"), ("approve", "1"), ("reject", "1"),
        ("pause", "1"), ("cancel", "1"), ("gc",),
    ]  # fmt: skip
    for command in commands:
        assert_clear(cli(*command), 1, "Error [DATABASE_CORRUPT]")
    table = (ROOT / "docs" / "cli.md").read_text().split("## `alphred run FILE`")[0]
    (row,) = [line for line in table.splitlines() if line.startswith("| 1 |")]
    assert "`DATABASE_CORRUPT`" in row and "`DATABASE_LOCKED`" in row  # the exit-code table says 1 too
    assert "DATABASE_CORRUPT" not in next(line for line in table.splitlines() if line.startswith("| 2 |"))


def test_cancel_on_a_locked_database_is_exit_1_as_documented(repo: Path) -> None:
    gate = repo / "gate.yaml"
    gate.write_text("alphred: 1\nkey: gate\nphases:\n  ask: {type: approval}\n")
    assert cli("run", str(gate), "-q").exit_code == 4  # waits for approval: cancellable
    holder = sqlite3.connect(repo / ".alphred" / "alphred.db", isolation_level=None)
    holder.execute("begin exclusive")
    try:
        result = cli("cancel", "1", env={"ALPHRED_DB_BUSY_TIMEOUT": "0.2"})
    finally:
        holder.execute("rollback")
        holder.close()
    assert_clear(result, 1, "Error [DATABASE_LOCKED]")
    docs = (ROOT / "docs" / "cli.md").read_text()
    assert "1 when the database is locked" in docs


def test_workflow_with_a_single_quoted_placeholder_is_refused_by_run_too(repo: Path) -> None:
    path = write_workflow(
        repo,
        """\
        inputs: {msg: {default: x}}
        phases:
          a: {type: command, run: "echo '{{ inputs.msg }}'"}
        """,
    )
    assert_clear(
        cli("run", str(path)), 2, "wf.yaml:5:34: error: '{{ inputs.msg }}' cannot be used inside single quotes"
    )


def test_the_libyaml_segfault_input_is_a_located_error_in_a_real_process(tmp_path: Path) -> None:
    """30,000 nested '[' once crashed libyaml's recursive composer (exit 139, no message)."""
    path = tmp_path / "deep.yaml"
    path.write_text(
        "alphred: 1\nkey: wf\nphases:\n  a: {provider: scripted, script: [{report: {a: " + "[" * 30_000 + "}}]}\n"
    )
    result = subprocess.run(
        [sys.executable, "-m", "alphred", "validate", str(path)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2, (result.returncode, result.stderr[-500:])
    assert f"{path}:4:" in result.stderr and "nested deeper than 64 levels" in result.stderr
    assert "INTERNAL" not in result.stderr
