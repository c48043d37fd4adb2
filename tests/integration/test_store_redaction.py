"""The store's one redaction boundary, on SQLite and PostgreSQL: single rows, batched rows, JSON columns."""

from __future__ import annotations

import pytest

from alphred import redact
from alphred.store import EventRow, SqlRunStore

TOKEN = "ghp_" + "Q7w8E9r0T1" * 4
PASSWORD = "pg-pass-1234"


@pytest.fixture(autouse=True)
def fresh_redactor(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(redact, "_PROCESS", None)
    redact.register_secrets(["multi line\nsecond-secret-line"])


def test_every_write_path_is_redacted(store: SqlRunStore, demo_run_id: int) -> None:
    store.set_run_status(demo_run_id, "running", reason=f"token {TOKEN}")
    node = store.get_node(demo_run_id, "implement")
    rows = [
        EventRow(
            demo_run_id,
            node.id,
            1,
            i,
            "tool_result",
            f"line {i}: {TOKEN}",
            metadata={"url": f"postgresql://u:{PASSWORD}@h/d"},
        )
        for i in range(1, 4)
    ]
    rows.append(EventRow(demo_run_id, node.id, 1, 4, "tool_result", "second-secret-line"))
    store.append_events(rows)
    store.add_artifact(demo_run_id, "implement", 1, "report", text=f"x {TOKEN}", data={"nested": [TOKEN]})
    events = store.events(demo_run_id)
    assert [e.content for e in events] == [f"line {i}: [REDACTED]" for i in range(1, 4)] + ["[REDACTED]"]
    assert all(PASSWORD not in str(e.metadata) for e in events)
    assert events[0].metadata == {"url": "postgresql://u:[REDACTED]@h/d"}
    artifact = store.latest_artifact(demo_run_id, "implement", "report")
    assert artifact is not None
    assert artifact.content_text == "x [REDACTED]"
    assert artifact.content_json == {"nested": ["[REDACTED]"]}
    assert store.get_run(demo_run_id).reason == "token [REDACTED]"
