"""Fuzzing ``validate``: mutated bundled workflows and YAML pathologies never crash, hang or blow up memory.

Every example goes through ``check_workflow`` in-process (what ``alphred validate`` runs): it must return
diagnostics, never raise (an exception would be ``Error [INTERNAL]``, exit 1), so the CLI's exit code is 0 or
2. Memory is bounded by a tracemalloc peak. The suite's budget is a fixed number of examples (a few hundred,
derandomized), never a deadline: a loaded machine makes each example slower, not wrong.
``benchmarks/fuzz_validate.py`` runs many more, freshly random (``ALPHRED_FUZZ_EXAMPLES``), and catches hangs
with a per-example deadline (``ALPHRED_FUZZ_DEADLINE_SECONDS``).
"""

from __future__ import annotations

import os
import tracemalloc
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from alphred.errors import WorkflowInvalidError
from alphred.providers import default_registry
from alphred.workflow import check_workflow, load_workflow
from alphred.workflow.diagram import render_dot, render_mermaid

PROVIDERS = default_registry()  # every installed provider, as the CLI has them

EXAMPLES = int(os.environ.get("ALPHRED_FUZZ_EXAMPLES", "300"))
_DEADLINE = os.environ.get("ALPHRED_FUZZ_DEADLINE_SECONDS")
DEADLINE = timedelta(seconds=float(_DEADLINE)) if _DEADLINE else None  # the benchmark's hang check; None here
PEAK_BYTES = 200_000_000
WORKFLOWS = sorted((Path(__file__).resolve().parents[2] / "workflows").glob("*.yaml"))
SOURCES = [path.read_text(encoding="utf-8") for path in WORKFLOWS]

SNIPPETS = [
    "[" * 30_000,
    "{a: " * 2_000,
    "!!python/object/apply:os.system ['touch /tmp/alphred-fuzz-pwned']",
    "!foo",
    "!!int abc",
    "!!bool maybe",
    "<<: *a",
    "&a [*a]",
    "&b {x: *b}",
    "9" * 5_000,
    str(2**63),
    "-" + str(2**64),
    ".inf",
    ".nan",
    "1.0e+308",
    "1e308",
    "2001-13-45",
    "'{{ inputs.x }}'",
    '"$(touch /tmp/alphred-fuzz-pwned)"',
    "{{ " + "a." * 500 + "b }}",
    "(" * 5_000 + "x" + ")" * 5_000,
    "\t",
    "\x00",
    "\ufeff",
    "%YAML 1.1\n---",
    "--- |\n  x\n...",
    "? [a, b]\n: c",
    "*undefined",
]
ALPHABET = st.sampled_from([*"[]{}:,-&*!|>'\"#%@?\n\t \\$(){}.=<", "a", "b", "1", "~", "null", "true"])


def billion_laughs(levels: int) -> str:
    lines = ["l0: &l0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 10) + "]" for i in range(1, levels)]
    return "\n".join(lines)


@st.composite
def mutated_workflow(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(SOURCES))
    for _ in range(draw(st.integers(1, 4))):
        position = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["insert", "delete", "snippet", "duplicate_line", "indent"]))
        if kind == "insert":
            text = text[:position] + "".join(draw(st.lists(ALPHABET, min_size=1, max_size=8))) + text[position:]
        elif kind == "delete":
            text = text[:position] + text[position + draw(st.integers(1, 40)) :]
        elif kind == "snippet":
            text = text[:position] + draw(st.sampled_from(SNIPPETS)) + text[position:]
        else:
            lines = text.splitlines(keepends=True)
            if lines:
                index = draw(st.integers(0, len(lines) - 1))
                extra = lines[index] if kind == "duplicate_line" else "  " + lines[index]
                lines.insert(index, extra)
                text = "".join(lines)
    return text


@st.composite
def yaml_pathology(draw: st.DrawFn) -> str:
    head = "alphred: 1\nkey: fuzz\nphases:\n  a:\n    provider: scripted\n"
    kind = draw(st.sampled_from(["deep_flow", "deep_block", "bomb", "value", "anchors"]))
    if kind == "deep_flow":
        depth = draw(st.integers(1, 40_000))
        body = "    script: [{report: {a: " + "[" * depth + "]" * draw(st.integers(0, depth)) + "}}]\n"
    elif kind == "deep_block":
        depth = draw(st.integers(1, 1_500))
        body = "    script:\n      - report:\n" + "".join("  " * (i + 4) + f"k{i}:\n" for i in range(depth))
    elif kind == "bomb":
        body = "    script:\n      - report:\n" + "".join(
            f"          {line}\n" for line in billion_laughs(draw(st.integers(2, 12))).splitlines()
        )
    elif kind == "anchors":
        body = "    max_visits: &m " + draw(st.sampled_from(SNIPPETS[9:17])) + "\n    max_retries: *m\n"
    else:
        field = draw(st.sampled_from(["max_visits", "max_retries", "timeout", "idle_timeout", "model", "prompt"]))
        body = f"    {field}: {draw(st.sampled_from(SNIPPETS))}\n"
    return head + body


def check_one(text: str) -> None:
    tracemalloc.start()
    try:
        workflow, diagnostics = check_workflow("fuzz.yaml", text, providers=PROVIDERS)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < PEAK_BYTES, f"validate used {peak} bytes"
    assert (workflow is None) == any(d.severity == "error" for d in diagnostics)
    for diagnostic in diagnostics:
        assert diagnostic.line >= 1 and diagnostic.column >= 1
        diagnostic.format()
    if workflow is not None:  # what `alphred graph` does with it
        render_mermaid(workflow)
        render_dot(workflow)
    else:
        try:
            load_workflow("fuzz.yaml", text, providers=PROVIDERS)
        except WorkflowInvalidError as exc:
            assert str(exc)
        else:
            raise AssertionError("load_workflow accepted what check_workflow refused")


FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=DEADLINE,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=os.environ.get("ALPHRED_FUZZ_RANDOM") is None,
)


@pytest.mark.slow
@FUZZ
@given(mutated_workflow())
def test_mutated_bundled_workflows_validate_without_crashing(text: str) -> None:
    check_one(text)


@pytest.mark.slow
@FUZZ
@given(yaml_pathology())
def test_yaml_pathologies_validate_without_crashing(text: str) -> None:
    check_one(text)


@settings(max_examples=EXAMPLES, deadline=DEADLINE)
@given(st.text(max_size=400))
def test_arbitrary_text_validates_without_crashing(text: str) -> None:
    check_one(text)


SHELL = st.sampled_from(
    [*"'\"`$(){}\\\n #;|&<>-=*", "<<EOF\n", "\nEOF\n", "<<'E'\n", "$((", "sh -c ", "eval ", "x", " "]
)


@settings(max_examples=EXAMPLES, deadline=DEADLINE)
@given(st.lists(st.one_of(SHELL, st.just("{{ inputs.msg }}")), max_size=30))
def test_any_command_template_gets_a_script_or_located_problems(pieces: list[str]) -> None:
    from alphred.guards.shell import shell_problems
    from alphred.guards.templates import parse_template
    from alphred.runtime.command_phase import template_command

    try:
        template = parse_template("".join(pieces))
    except Exception:  # a malformed '{{' is the template parser's (located) error, tested elsewhere
        return
    problems = shell_problems(template)
    for offset, message in problems:
        assert 0 <= offset < len(template.text) and message
    if not problems:
        script, env = template_command(template, {"inputs": {"msg": "$(touch /tmp/alphred-fuzz-pwned)"}})
        assert "$(touch" not in script
        assert set(env) <= {"ALPHRED_INPUTS_MSG"}
