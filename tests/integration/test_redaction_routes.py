"""Every route a secret can take into storage or output is masked: grep the database files and every output."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from helpers.cli import cli

from alphred import redact

PEM_LINES = [
    "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun",
    "VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK",
    "LxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW/VDL5AaWTg0nLVkjRo",
]
PEM = "-----BEGIN RSA PRIVATE KEY-----\n" + "\n".join(PEM_LINES) + "\n-----END RSA PRIVATE KEY-----"
URL_PASSWORD = "s3cretUrlPw"
NAMED_INPUT = "hunter2hunter2"
SHAPED_INPUT = "ghp_" + "A1b2C3d4E5" * 4
COMMENT_SECRET = "sk-ant-" + "Zq9" * 10
SECRETS = [*PEM_LINES, URL_PASSWORD, NAMED_INPUT, SHAPED_INPUT, COMMENT_SECRET]


@pytest.fixture
def repo(repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The shared repository as the working directory, with secrets in this process's environment."""
    monkeypatch.setenv("DEPLOY_PRIVATE_KEY", PEM)
    monkeypatch.setenv("REPLICA_URL", f"postgresql://deploy:{URL_PASSWORD}@db.example.invalid/app")
    monkeypatch.setattr(redact, "_PROCESS", None)  # this process's redactor, built from the environment above
    monkeypatch.chdir(repo)
    return repo


WORKFLOW = """\
alphred: 1
key: leaky
inputs:
  api_token: {required: true}
  note: {required: true}
phases:
  echo:
    type: command
    run: |
      printf '%s\\n' "$DEPLOY_PRIVATE_KEY"
      echo "replica at $REPLICA_URL"
      echo "token {{ inputs.api_token }} note {{ inputs.note }}"
    transitions: [{to: agent}]
  agent:
    provider: scripted
    prompt: "Use {{ inputs.api_token }} and {{ inputs.note }}"
    script:
      - report: {seen: "{{ inputs.note }}"}
    transitions:  # its guard reads the secrets: the stored routing explanation must not hold them
      - to: gate
        when: report.seen == inputs.note or inputs.api_token != ""
  gate:
    type: approval
    message: "Ship {{ inputs.note }}?"
"""


def test_no_secret_reaches_the_database_or_any_output(repo: Path) -> None:
    workflow = repo.parent / "leaky.yaml"
    workflow.write_text(textwrap.dedent(WORKFLOW))
    started = cli(
        "run", str(workflow), "--json", "--events", "jsonl",
        "-i", f"api_token={NAMED_INPUT}", "-i", f"note={SHAPED_INPUT}",
    )  # fmt: skip
    assert started.exit_code == 4, started.stderr
    run_id = str(json.loads(started.stdout.splitlines()[-1])["run_id"])
    approved = cli("approve", run_id, "--comment", f"fine, key {COMMENT_SECRET} and {NAMED_INPUT}", "--json")
    assert approved.exit_code == 0, approved.stderr
    outputs = {
        "run --events jsonl --json": started.stdout + started.stderr,
        "approve": approved.stdout + approved.stderr,
        "status --json": cli("status", run_id, "--json").stdout,
        "status": cli("status", run_id).stdout,
        "status --explain": cli("status", run_id, "--explain").stdout,
        "status --json --explain": cli("status", run_id, "--json", "--explain").stdout,
        "runs --json": cli("runs", "--json").stdout,
        "logs": cli("logs", run_id).stdout,
    }
    assert "inputs.api_token = " in outputs["status --explain"]  # the guard's readings are shown, masked
    assert "[REDACTED]" in outputs["logs"] and "replica at postgresql://deploy:[REDACTED]@db" in outputs["logs"]
    files = {p.name: p.read_bytes() for p in (repo / ".alphred").iterdir() if p.name.startswith("alphred.db")}
    assert files
    for secret in SECRETS:
        for name, text in outputs.items():
            assert secret not in text, f"{secret!r} leaked through {name}"
        for name, data in files.items():
            assert secret.encode() not in data, f"{secret!r} stored in {name}"
