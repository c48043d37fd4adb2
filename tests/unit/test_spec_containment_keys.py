"""The containment keys of SPEC §14: ``sandbox:``, ``env:``, ``git: {hooks}``, refused prompt files and the
openai key sent to another host."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from alphred.providers import default_registry
from alphred.workflow import SandboxPolicy, check_workflow, load_workflow

PROVIDERS = default_registry(builtin_only=True)


def diagnostics(text: str, severity: str = "error") -> list[str]:
    _, found = check_workflow("wf.yaml", textwrap.dedent(text), providers=PROVIDERS)
    return [d.format() for d in found if d.severity == severity]


def test_sandbox_and_env_are_read_per_phase_and_from_defaults() -> None:
    wf = load_workflow(
        "wf.yaml",
        textwrap.dedent(
            """\
            alphred: 1
            key: wf
            git: {hooks: true}
            defaults:
              sandbox: {network: false}
              env: [GITHUB_TOKEN]
            phases:
              build: {type: command, run: make}
              fetch: {type: command, run: curl x, sandbox: {network: true}, env: [NPM_TOKEN, NPM_TOKEN]}
              free: {type: command, run: ls, sandbox: false}
              agent: {provider: scripted, script: [{}], sandbox: true}
              own_mode: {provider: codex, sandbox: read-only}
            """
        ),
        providers=PROVIDERS,
    )
    phases = {p.key: p for p in wf.phases}
    assert wf.git_hooks is True
    assert (phases["build"].sandbox, phases["build"].env) == (SandboxPolicy(network=False), ("GITHUB_TOKEN",))
    assert (phases["fetch"].sandbox, phases["fetch"].env) == (SandboxPolicy(network=True), ("NPM_TOKEN",))
    assert phases["free"].sandbox is None
    assert phases["agent"].sandbox == SandboxPolicy()
    assert phases["own_mode"].sandbox is None and phases["own_mode"].options["sandbox"] == "read-only"
    assert load_workflow(
        "wf.yaml", "alphred: 1\nkey: wf\nphases:\n  a: {type: command, run: ls}\n", providers=PROVIDERS
    )
    assert not load_workflow(
        "wf.yaml", "alphred: 1\nkey: wf\nphases:\n  a: {type: command, run: ls}\n", providers=PROVIDERS
    ).git_hooks


def test_bad_containment_values_are_located() -> None:
    head = "alphred: 1\nkey: wf\nphases:\n  a:\n    type: command\n    run: ls\n"
    assert diagnostics(head + "    sandbox: read-only\n") == [
        "wf.yaml:7:14: error: 'sandbox' must be a mapping ({network: false}), true or false"
    ]
    assert diagnostics(head + "    sandbox: {network: maybe}\n")[0].startswith("wf.yaml:7:24: error:")
    assert diagnostics(head + "    sandbox: {netwrk: true}\n")[0].startswith(
        "wf.yaml:7:15: error: unknown key 'netwrk'"
    )
    assert diagnostics(head + "    env: [GOOD, 'not a name']\n") == [
        "wf.yaml:7:17: error: 'not a name' is not an environment variable name"
    ]
    assert diagnostics("alphred: 1\nkey: wf\ngit: {hook: true}\nphases:\n  a: {type: command, run: ls}\n")[
        0
    ].startswith("wf.yaml:3:7: error: unknown key 'hook' in git")


def test_a_provider_that_cannot_enforce_the_sandbox_is_refused_at_validate() -> None:
    from alphred.providers.descriptor import ProviderDescriptor
    from alphred.workflow.provider_keys import OPTIONS_KEY

    other = ProviderDescriptor(name="other", factory=lambda: None, phase_keys=(OPTIONS_KEY,))  # type: ignore[arg-type,return-value]
    text = "alphred: 1\nkey: wf\ndefaults: {sandbox: {network: false}}\nphases:\n  a: {provider: other}\n"
    _, found = check_workflow("wf.yaml", text, providers={**PROVIDERS, "other": other})
    assert [d.format() for d in found if d.severity == "error"] == [
        "wf.yaml:3:21: error: provider 'other' of phase 'a' cannot enforce 'sandbox' (its capabilities say so): "
        "use a provider that can, or set 'sandbox: false' on the phase"
    ]
    text = "alphred: 1\nkey: wf\nphases:\n  a: {provider: other, sandbox: false}\n"
    _, found = check_workflow("wf.yaml", text, providers={**PROVIDERS, "other": other})
    assert [d for d in found if d.severity == "error"] == []


@pytest.mark.parametrize(
    ("prompt_file", "why"),
    [
        (".git/config", "is under .git/"),
        ("sub/.git/HEAD", "is under .git/"),
        (".env", "is a .env file"),
        ("config/.env.production", "is a .env.production file"),
    ],
)
def test_prompt_file_refuses_git_files_and_env_files(tmp_path: Path, prompt_file: str, why: str) -> None:
    (tmp_path / ".git").mkdir()
    target = tmp_path / prompt_file
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("[remote]\nurl = https://user:ghp_secret@example.invalid/x.git\n")
    path = tmp_path / "wf.yaml"
    path.write_text(f"alphred: 1\nkey: wf\nphases:\n  a:\n    provider: scripted\n    prompt_file: {prompt_file}\n")
    _, found = check_workflow(path, providers=PROVIDERS)
    (only,) = [d.format() for d in found if d.severity == "error"]
    assert f"prompt_file '{prompt_file}' {why}" in only


def test_a_symlink_to_a_git_file_is_refused_too(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "config").write_text("[core]\n")
    (tmp_path / "prompt.md").symlink_to(tmp_path / ".git" / "config")
    path = tmp_path / "wf.yaml"
    path.write_text("alphred: 1\nkey: wf\nphases:\n  a:\n    provider: scripted\n    prompt_file: prompt.md\n")
    _, found = check_workflow(path, providers=PROVIDERS)
    assert any("is under .git/" in d.message for d in found if d.severity == "error")


def test_openai_key_of_another_name_sent_to_another_host_is_a_warning() -> None:
    def warned(key: str, url: str) -> list[str]:
        text = (
            "alphred: 1\nkey: wf\nphases:\n  a:\n    provider: openai\n    model: m\n"
            f"    base_url: {url}\n    api_key_env: {key}\n"
        )
        return diagnostics(text, "warning")

    (warning,) = warned("GITHUB_TOKEN", "https://models.example.invalid/v1")
    assert warning.startswith("wf.yaml:8:18: warning: phase 'a' sends the value of GITHUB_TOKEN as a Bearer token")
    assert "models.example.invalid" in warning
    assert warned("OPENAI_API_KEY", "https://models.example.invalid/v1") == []
    assert warned("LOCAL_KEY", "http://127.0.0.1:8080/v1") == []
    assert warned("none", "https://models.example.invalid/v1") == []
    assert warned("MY_KEY", "https://api.openai.com/v1") == []
