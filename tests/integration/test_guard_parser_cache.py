"""The guard parser is loaded from the package only: nothing in the temp directory is unpickled or run."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

from alphred.guards import parse as guard_parse

WORKFLOWS = Path(__file__).resolve().parents[2] / "workflows"


_BUILD_WITH_CACHE = """
from importlib import resources
from lark import Lark
grammar = resources.files("alphred.guards").joinpath("guard.lark").read_text(encoding="utf-8")
Lark(grammar, parser="lalr", lexer="basic", maybe_placeholders=False, propagate_positions=False, cache=True)
"""


class _Payload:
    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (os.system, (f"touch {self.marker}",))


def test_a_planted_lark_cache_pickle_is_never_loaded(tmp_path: Path) -> None:
    shared_tmp = tmp_path / "tmp"
    shared_tmp.mkdir()
    marker = tmp_path / "pwned"
    env = {**os.environ, "TMPDIR": str(shared_tmp), "TMP": str(shared_tmp), "TEMP": str(shared_tmp)}
    # Let Lark write its cache for the guard grammar, as the parser once did, to learn the predictable name
    subprocess.run([sys.executable, "-c", _BUILD_WITH_CACHE], env=env, check=True, timeout=60)
    planted = [p for p in shared_tmp.iterdir() if p.name.startswith(".lark_cache")]
    assert planted
    for path in planted:  # Lark checks the first line (the hash in the name), then unpickles the rest
        digest = path.read_bytes().partition(b"\n")[0]
        path.write_bytes(digest + b"\n" + pickle.dumps(_Payload(marker)))
    result = subprocess.run(
        [sys.executable, "-m", "alphred", "validate", str(WORKFLOWS / "fix-issue.yaml")],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert not marker.exists()
    assert sorted(p.name for p in shared_tmp.iterdir() if not p.name.startswith(".lark_cache")) == []


def test_packaged_tables_match_the_grammar() -> None:
    """guard.tables must be regenerated (guard_parse.write_tables()) whenever guard.lark changes."""
    folder = Path(guard_parse.__file__).parent
    grammar = (folder / "guard.lark").read_text(encoding="utf-8")
    digest = (folder / guard_parse.TABLES_FILE).read_text(encoding="utf-8").partition("\n")[0]
    assert digest == guard_parse._grammar_digest(grammar)


def test_stale_tables_fall_back_to_building_the_grammar() -> None:
    folder = Path(guard_parse.__file__).parent
    grammar = (folder / "guard.lark").read_text(encoding="utf-8")
    built = guard_parse._build(grammar, guard_parse._transformer())
    loaded = guard_parse._parser()
    text = 'decision == "approved" and not (exit_code in [1, 2])'
    assert built.parse(text) == loaded.parse(text)
