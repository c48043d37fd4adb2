#!/usr/bin/env python3
"""The Alphred GitHub Action's first step: what to run, read from the event (standard library only).

- ``issue_comment``: the comment's first line is ``/alphred WORKFLOW k=v ...``. Only an author with write
  access (``author_association`` OWNER, MEMBER or COLLABORATOR) may ask; anyone else's command fails the step
  (an ``::error::`` line, exit 1) and nothing is posted back. A comment that is no command is skipped.
- any other event (an issue labelled, a schedule, a manual dispatch): the action's ``workflow`` input and its
  ``inputs`` (lines of ``k=v``).

The workflow is a file in the checkout (``WORKFLOW`` ending in .yaml/.yml, or ``workflows/WORKFLOW.yaml`` /
``.alphred/workflows/WORKFLOW.yaml``), never outside it. Inputs go to a JSON file for ``--input-file``: no value
is ever part of a command line. Outputs (``$GITHUB_OUTPUT``): ``skip``, ``workflow``, ``input_file``.
Nothing here is parsed as shell: words are split on blanks (``k="a b"`` keeps its quoted blanks).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
import uuid
from pathlib import Path

WRITERS = ("OWNER", "MEMBER", "COLLABORATOR")
COMMAND = re.compile(r"^/alphred(?:\s+(.*))?$")
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$")
INPUT_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
MAX_INPUT_BYTES = 64_000


class Refused(Exception):
    """The request cannot be run; the message says why (it becomes the step's ::error::)."""


def main() -> int:
    env = os.environ
    try:
        request = read_request(env)
    except Refused as exc:
        print(f"::error title=alphred::{_one_line(str(exc))}")
        return 1
    if request is None:
        print("alphred: the comment is no /alphred command; nothing to run")
        write_outputs(env, {"skip": "true", "workflow": "", "input_file": ""})
        return 0
    workflow, inputs = request
    target = Path(env.get("RUNNER_TEMP") or ".") / f"alphred-inputs-{uuid.uuid4().hex}.json"
    target.write_text(json.dumps(inputs), encoding="utf-8")
    print(f"alphred: run {workflow} with inputs {', '.join(sorted(inputs)) or '(none)'}")
    write_outputs(env, {"skip": "false", "workflow": workflow, "input_file": str(target)})
    return 0


def read_request(env: os._Environ[str] | dict[str, str]) -> tuple[str, dict[str, str]] | None:
    """The workflow file and inputs the event asks for; None for a comment that is no command."""
    event_name = env.get("GITHUB_EVENT_NAME", "")
    event = _event(env.get("GITHUB_EVENT_PATH"))
    workspace = Path(env.get("GITHUB_WORKSPACE") or ".")
    inputs = parse_lines(env.get("INPUT_INPUTS", ""))
    if event_name == "issue_comment":
        comment = event.get("comment") if isinstance(event.get("comment"), dict) else {}
        body = str(comment.get("body") or "")
        first = body.strip().splitlines()[0].strip() if body.strip() else ""
        found = COMMAND.match(first)
        if found is None:
            return None
        association = str(comment.get("author_association") or "NONE")
        user = comment.get("user") if isinstance(comment.get("user"), dict) else {}
        login = str(user.get("login") or "someone")
        if association not in WRITERS:
            raise Refused(
                f"{login} ({association}) may not run Alphred: only OWNER, MEMBER or COLLABORATOR authors may"
            )
        words = _split(found.group(1) or "")
        if not words:
            raise Refused("the command names no workflow: /alphred WORKFLOW [k=v ...]")
        inputs.update(parse_pairs(words[1:]))
        return resolve(workspace, words[0]), inputs
    name = env.get("INPUT_WORKFLOW", "").strip()
    if not name:
        raise Refused(f"the action's 'workflow' input is empty (event {event_name or 'unknown'})")
    return resolve(workspace, name), inputs


def parse_lines(text: str) -> dict[str, str]:
    """``inputs``: one ``k=v`` per line (blank lines and ``#`` comments skipped)."""
    lines = [line.strip() for line in text.splitlines()]
    return parse_pairs([line for line in lines if line and not line.startswith("#")])


def parse_pairs(pairs: list[str]) -> dict[str, str]:
    """``k=v`` words as a mapping; a word without ``=`` or a bad name is refused."""
    found: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        name = name.strip()
        if not sep or not INPUT_NAME.match(name):
            raise Refused(f"'{_shown(pair)}' is not an input: use name=value")
        if len(value.encode("utf-8")) > MAX_INPUT_BYTES:
            raise Refused(f"the value of {name} is over {MAX_INPUT_BYTES} bytes")
        found[name] = value
    return found


def resolve(workspace: Path, name: str) -> str:
    """The workflow file ``name`` stands for, inside the checkout; Refused otherwise."""
    if not NAME.match(name) or ".." in name.split("/"):
        raise Refused(f"'{_shown(name)}' is not a workflow name or path inside the repository")
    root = workspace.resolve()
    candidates = [name] if name.endswith((".yaml", ".yml")) else []
    candidates += [f"workflows/{name}.yaml", f".alphred/workflows/{name}.yaml"]
    for candidate in candidates:
        path = (root / candidate).resolve()
        if path.is_file() and (path == root or root in path.parents):
            return str(path.relative_to(root))
    raise Refused(f"no workflow '{name}' in the repository (looked for {', '.join(candidates)})")


def write_outputs(env: os._Environ[str] | dict[str, str], values: dict[str, str]) -> None:
    path = env.get("GITHUB_OUTPUT")
    if not path:
        return
    with open(path, "a", encoding="utf-8") as handle:
        for key, value in values.items():
            delimiter = f"ALPHRED_{uuid.uuid4().hex}"
            handle.write(f"{key}<<{delimiter}\n{value}\n{delimiter}\n")


def _event(path: str | None) -> dict[str, object]:
    if not path:
        return {}
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise Refused(f"cannot read the event payload: {exc}") from None
    return data if isinstance(data, dict) else {}


def _split(text: str) -> list[str]:
    try:
        return shlex.split(text, comments=False, posix=True)  # words only: nothing is run
    except ValueError as exc:
        raise Refused(f"cannot read the command's words: {exc}") from None


def _shown(text: str) -> str:
    return _one_line(text)[:80]


def _one_line(text: str) -> str:
    return " ".join(text.split()).replace("::", ": :")


if __name__ == "__main__":
    sys.exit(main())
