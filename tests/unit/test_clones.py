"""Repository identity: which clone is the same repository, where the cache lives (SPEC §10)."""

from __future__ import annotations

from pathlib import Path

from alphred.operations.clones import Identity, cache_dir, normal_url, same_repository


def test_urls_compare_without_trailing_slash_or_dot_git(tmp_path: Path) -> None:
    assert normal_url("https://example.invalid/o/r.git/") == normal_url("https://example.invalid/o/r")
    assert normal_url("git@example.invalid:o/r.git") == "git@example.invalid:o/r"
    link = tmp_path / "link.git"
    link.symlink_to(tmp_path)
    assert normal_url(str(link)) == normal_url(str(tmp_path))
    assert normal_url(None) is None and normal_url("") is None


def test_same_repository_by_origin_or_by_root_commit() -> None:
    mine = Identity("https://example.invalid/o/r.git", "a" * 40)
    assert same_repository(mine, "https://example.invalid/o/r", None)
    assert same_repository(mine, "https://example.invalid/other", "a" * 40)  # a fork with the same history
    assert not same_repository(mine, "https://example.invalid/other", "b" * 40)
    assert not same_repository(Identity(None, None), None, None)


def test_cache_dir_defaults_under_home_and_follows_the_variable(tmp_path: Path) -> None:
    assert cache_dir({"HOME": str(tmp_path)}) == tmp_path / ".cache" / "alphred" / "repos"
    assert cache_dir({"HOME": str(tmp_path), "ALPHRED_CACHE_DIR": str(tmp_path / "c")}) == tmp_path / "c"
