"""Remote URLs to providers and hosted repositories, push failure classes, the PR base: pure string rules."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from alphred.errors import ScmNotReadyError
from alphred.scm.preflight import choose_provider, pull_request_base
from alphred.scm.push import classify_push_failure
from alphred.scm.remote import AzureRepository, azure_repository, detect_provider, github_repository, split_url

NAME = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,20}", fullmatch=True).filter(lambda n: not n.endswith(".git"))


@pytest.mark.parametrize(
    ("url", "provider"),
    [
        ("https://github.com/acme/widgets.git", "github"),
        ("git@github.com:acme/widgets.git", "github"),
        ("ssh://git@github.example.com:2222/acme/widgets", "github"),
        ("/srv/git/widgets.git", "github"),
        ("../widgets", "github"),
        ("file:///srv/git/widgets.git", "github"),
        ("C:\\repos\\widgets", "github"),
        ("https://dev.azure.com/acme/widgets/_git/widgets", "azure"),
        ("https://acme@dev.azure.com/acme/widgets/_git/widgets", "azure"),
        ("git@ssh.dev.azure.com:v3/acme/widgets/widgets", "azure"),
        ("https://acme.visualstudio.com/widgets/_git/widgets", "azure"),
        ("acme@vs-ssh.visualstudio.com:v3/acme/widgets/widgets", "azure"),
        ("https://gitlab.com/acme/widgets.git", "gitlab"),
        ("git@gitlab.example.org:acme/widgets.git", "gitlab"),
    ],
)
def test_detect_provider(url: str, provider: str) -> None:
    assert detect_provider(url) == provider


def test_split_url_tells_hosts_from_local_paths() -> None:
    assert split_url("git@github.com:acme/w.git") == ("github.com", "acme/w.git")
    assert split_url("https://user:pw@GitHub.com/acme/w") == ("github.com", "/acme/w")
    assert split_url("/srv/w.git") == (None, "/srv/w.git")
    assert split_url("file:///srv/w%20x.git") == (None, "/srv/w x.git")


@pytest.mark.parametrize(
    ("url", "repository"),
    [
        ("https://github.com/acme/widgets.git", "github.com/acme/widgets"),
        ("git@github.com:acme/widgets.git", "github.com/acme/widgets"),
        ("https://ghe.example.com/acme/widgets/", "ghe.example.com/acme/widgets"),
        ("https://github.com/acme", None),
        ("/srv/git/acme/widgets.git", None),
    ],
)
def test_github_repository(url: str, repository: str | None) -> None:
    assert github_repository(url) == repository


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (
            "https://dev.azure.com/acme/Big%20Project/_git/widgets",
            ("https://dev.azure.com/acme", "Big Project", "widgets"),
        ),
        ("git@ssh.dev.azure.com:v3/acme/proj/widgets", ("https://dev.azure.com/acme", "proj", "widgets")),
        ("https://acme.visualstudio.com/DefaultCollection/proj/_git/w", ("https://acme.visualstudio.com", "proj", "w")),
        ("acme@vs-ssh.visualstudio.com:v3/acme/proj/w", ("https://acme.visualstudio.com", "proj", "w")),
        ("https://dev.azure.com/acme/proj", None),
        ("https://github.com/acme/w", None),
    ],
)
def test_azure_repository(url: str, expected: tuple[str, str, str] | None) -> None:
    assert azure_repository(url) == (AzureRepository(*expected) if expected else None)


@given(NAME, NAME, NAME)
def test_azure_urls_round_trip(org: str, project: str, repo: str) -> None:
    for url in (
        f"https://dev.azure.com/{org}/{project}/_git/{repo}",
        f"git@ssh.dev.azure.com:v3/{org}/{project}/{repo}",
    ):
        assert detect_provider(url) == "azure"
        assert azure_repository(url) == AzureRepository(f"https://dev.azure.com/{org}", project, repo)


@given(NAME, NAME)
def test_github_urls_round_trip(owner: str, name: str) -> None:
    for url in (f"https://github.com/{owner}/{name}.git", f"git@github.com:{owner}/{name}"):
        assert detect_provider(url) == "github" and github_repository(url) == f"github.com/{owner}/{name}"


@given(st.text())
def test_url_rules_never_raise(text: str) -> None:
    assert detect_provider(text) in ("github", "azure", "gitlab")
    github_repository(text)
    azure_repository(text)


@pytest.mark.parametrize(
    ("output", "kind"),
    [
        (" ! [rejected]        alphred/x -> alphred/x (non-fast-forward)", "push_rejected"),
        (" ! [rejected]        alphred/x -> alphred/x (fetch first)", "push_rejected"),
        (" ! [remote rejected] alphred/x -> alphred/x (pre-receive hook declined)", "push_rejected"),
        ("remote: Permission to acme/widgets.git denied to bot.\nfatal: unable to access: 403", "auth"),
        ("fatal: could not read Username for 'https://github.com': terminal prompts disabled", "auth"),
        ("git@github.com: Permission denied (publickey).", "auth"),
        ("remote: HTTP Basic: Access denied", "auth"),
        ("fatal: '/x' does not appear to be a git repository", "push"),
        ("fatal: unable to access 'https://x/': Could not resolve host: x", "push"),
        ("error: something else", "push"),
    ],
)
def test_classify_push_failure(output: str, kind: str) -> None:
    assert classify_push_failure(output)[0] == kind


def test_the_pull_request_base() -> None:
    assert pull_request_base("release", "main") == "release"
    assert pull_request_base(None, "main") == "main"
    assert pull_request_base("  ", "origin/main") == "main"
    assert pull_request_base(None, "upstream/dev", remote="upstream") == "dev"
    with pytest.raises(ScmNotReadyError, match=r"set `base:`"):
        pull_request_base(None, None)


def test_choose_provider() -> None:
    assert choose_provider(None, "https://dev.azure.com/a/b/_git/c") == "azure"
    assert choose_provider("azure", "/srv/x.git") == "azure"
    assert choose_provider("github", "https://gitlab.com/a/b") == "github"
    with pytest.raises(ScmNotReadyError, match="GitLab"):
        choose_provider(None, "https://gitlab.com/a/b")
    with pytest.raises(ScmNotReadyError, match="use one of github, azure"):
        choose_provider("gitea", "/srv/x.git")
