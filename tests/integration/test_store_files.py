"""The store of files kept outside the branch (SPEC §17) on SQLite and PostgreSQL: blobs in pieces, stored
once; run files; memories saved atomically, the later completion winning."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable

from alphred.store import SqlRunStore
from alphred.store.files import CHUNK_BYTES
from alphred.workflow import Workflow


def new_run(store: SqlRunStore, make_workflow: Callable[..., Workflow]) -> int:
    tree_id, _ = store.compile(make_workflow())
    return store.create_run(tree_id, repo_path="/nowhere")


def put(store: SqlRunStore, run_id: int, area: str, path: str, content: bytes) -> str:
    sha = hashlib.sha256(content).hexdigest()
    with store.transaction() as tx:
        pieces = [content[i : i + CHUNK_BYTES] for i in range(0, len(content), CHUNK_BYTES)] or [b""]
        tx.add_blob(sha, len(content), pieces)
        tx.put_run_file(run_id, area, path, sha, len(content), 0o644, 1)
    return sha


def content(store: SqlRunStore, sha: str) -> bytes:
    with store.reading() as tx:
        return b"".join(tx.blob_chunks(sha))


def test_a_blob_is_stored_once_in_pieces_and_read_back(store: SqlRunStore) -> None:
    data = bytes(range(256)) * (CHUNK_BYTES // 256 * 2 + 3)  # three pieces
    sha = hashlib.sha256(data).hexdigest()
    with store.transaction() as tx:
        assert tx.add_blob(
            sha, len(data), [data[:CHUNK_BYTES], data[CHUNK_BYTES : 2 * CHUNK_BYTES], data[2 * CHUNK_BYTES :]]
        )
        assert not tx.add_blob(sha, len(data), [b"never read"])  # the same content again: nothing stored
    assert content(store, sha) == data
    assert store.blob_chunk(sha, 3) is None


def test_run_files_are_replaced_and_forgotten(store: SqlRunStore, make_workflow: Callable[..., Workflow]) -> None:
    run_id = new_run(store, make_workflow)
    put(store, run_id, "artifacts", "plan.md", b"one")
    second = put(store, run_id, "artifacts", "plan.md", b"two")
    put(store, run_id, "artifacts", "notes/a.txt", b"a")
    listed = store.run_files(run_id, "artifacts")
    assert [(f.path, f.sha256, f.size) for f in listed] == [
        ("notes/a.txt", listed[0].sha256, 1),
        ("plan.md", second, 3),
    ]
    assert store.run_files_size(run_id, "artifacts") == 4
    with store.transaction() as tx:
        assert tx.remove_run_files(run_id, "artifacts", ["plan.md", "missing"]) == 1
    assert [f.path for f in store.run_files(run_id)] == ["notes/a.txt"]


def test_memory_goes_from_a_completed_run_to_the_next(
    store: SqlRunStore, make_workflow: Callable[..., Workflow]
) -> None:
    first = new_run(store, make_workflow)
    with store.transaction() as tx:
        assert tx.use_memory(first, "root:abc", "wf", "notes") is None  # nothing saved yet
    put(store, first, "memory", "tried.txt", b"approach 1")
    with store.transaction() as tx:
        assert tx.save_memory(first)
    second = new_run(store, make_workflow)
    with store.transaction() as tx:
        assert tx.use_memory(second, "root:abc", "wf", "notes") == first
    assert [(f.path, f.size) for f in store.run_files(second, "memory")] == [("tried.txt", 10)]
    other = new_run(store, make_workflow)
    with store.transaction() as tx:  # another repository: another memory
        assert tx.use_memory(other, "root:def", "wf", "notes") is None
    assert store.run_files(other, "memory") == []
    [memory] = store.memories("root:abc", "notes")
    assert (memory.tree_key, memory.run_id, memory.files) == ("wf", first, (("tried.txt", 10),))
    assert store.clear_memory("root:abc", "notes") == 1
    assert store.memories("root:abc", "notes") == []


def test_the_later_completion_wins_and_no_mix_is_ever_seen(
    store: SqlRunStore, make_workflow: Callable[..., Workflow]
) -> None:
    runs = [new_run(store, make_workflow) for _ in range(6)]
    for number, run_id in enumerate(runs):
        with store.transaction() as tx:
            tx.use_memory(run_id, "root:abc", "wf", "notes")
        for name in ("a", "b", "c"):
            put(store, run_id, "memory", f"{name}.txt", f"run {number}".encode())
    errors: list[BaseException] = []

    def save(run_id: int) -> None:
        try:
            with store.transaction() as tx:
                tx.save_memory(run_id)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=save, args=(run_id,)) for run_id in runs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    [memory] = store.memories("root:abc", "notes")
    winner = runs.index(memory.run_id)  # type: ignore[arg-type]
    shas = {f.sha256 for f in store.run_files(memory.run_id or 0, "memory")}
    assert len(shas) == 1  # every file is the winner's: one run's memory, whole
    with store.reading() as tx:
        assert b"".join(tx.blob_chunks(shas.pop())) == f"run {winner}".encode()
    assert [path for path, _size in memory.files] == ["a.txt", "b.txt", "c.txt"]
    with store.transaction() as tx:  # a later completion replaces it
        tx.save_memory(runs[(winner + 1) % len(runs)])
    assert store.memories("root:abc", "notes")[0].run_id == runs[(winner + 1) % len(runs)]


def test_a_run_without_memory_saves_none(store: SqlRunStore, make_workflow: Callable[..., Workflow]) -> None:
    run_id = new_run(store, make_workflow)
    with store.transaction() as tx:
        assert not tx.save_memory(run_id)
