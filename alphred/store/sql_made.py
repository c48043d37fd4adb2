"""The store's hot statements compiled for SQLite (generated: do not edit by hand).

Written by ``python -m alphred.store.sql_gen``: see ``sql_gen.py``. ``SQL`` maps (statement name, parameter
names, executemany) to the SQL text, each positional parameter's (name, column of its type, required, value when
not given) and a SELECT's result columns (name, position of the selected column of its type), None for a write.
"""
# fmt: off
# ruff: noqa


FINGERPRINT = ('2.1.9', 'sqlite', 'pysqlite', 'qmark', True, True, True)

SQL = {
    ('runs.tree_nodes', ('_tree_id',), False): (
        'SELECT tree_nodes.id, tree_nodes.node_key, tree_nodes.sequence_index \nFROM tree_nodes \nWHERE tree_nodes.tree_id = ? ORDER BY tree_nodes.sequence_index',
        (('_tree_id', None, True, None),),
        (('id', None), ('node_key', None), ('sequence_index', None)),
    ),
    ('runs.run_by_id', ('_run_id',), False): (
        'SELECT workflow_runs.id, workflow_runs.tree_id, workflow_runs.status, workflow_runs.reason, workflow_runs.inputs, workflow_runs.branch, workflow_runs.base_sha, workflow_runs.head_sha, workflow_runs.base_ref, workflow_runs.worktree_path, workflow_runs.repo_path, workflow_runs.pr_url, workflow_runs.engine_state, workflow_runs.tokens, workflow_runs.cost_usd, workflow_runs.steps, workflow_runs.pause_requested, workflow_runs.cancel_requested, workflow_runs.lease_owner, workflow_runs.lease_expires_at, workflow_runs.created_at, workflow_runs.started_at, workflow_runs.completed_at, workflow_runs.updated_at, workflow_runs.priority, workflow_runs.requires, workflow_runs.queued, workflow_runs.request, workflow_runs.repo_name, workflow_runs.repo_url, workflow_runs.repo_root, workflow_runs.wake_at, workflow_runs.parent_run_id, workflow_runs.parent_step, workflow_trees.tree_key, workflow_trees.version AS tree_version \nFROM workflow_runs JOIN workflow_trees ON workflow_trees.id = workflow_runs.tree_id \nWHERE workflow_runs.id = ?',
        (('_run_id', None, True, None),),
        (('id', None), ('tree_id', None), ('status', None), ('reason', None), ('inputs', 4), ('branch', None), ('base_sha', None), ('head_sha', None), ('base_ref', None), ('worktree_path', None), ('repo_path', None), ('pr_url', None), ('engine_state', 12), ('tokens', None), ('cost_usd', None), ('steps', None), ('pause_requested', 16), ('cancel_requested', 17), ('lease_owner', None), ('lease_expires_at', 19), ('created_at', 20), ('started_at', 21), ('completed_at', 22), ('updated_at', 23), ('priority', None), ('requires', 25), ('queued', 26), ('request', 27), ('repo_name', None), ('repo_url', None), ('repo_root', None), ('wake_at', 31), ('parent_run_id', None), ('parent_step', None), ('tree_key', None), ('tree_version', None)),
    ),
    ('runs.nodes_of_run', ('_run_id',), False): (
        'SELECT run_nodes.id, run_nodes.run_id, run_nodes.tree_node_id, run_nodes.node_key, run_nodes.sequence_index, run_nodes.status, run_nodes.attempt, run_nodes.visits, run_nodes.decision, run_nodes.exit_code, run_nodes.tokens, run_nodes.cost_usd, run_nodes.lease_owner, run_nodes.lease_expires_at, run_nodes.started_at, run_nodes.completed_at, run_nodes.updated_at \nFROM run_nodes \nWHERE run_nodes.run_id = ? ORDER BY run_nodes.sequence_index',
        (('_run_id', None, True, None),),
        (('id', None), ('run_id', None), ('tree_node_id', None), ('node_key', None), ('sequence_index', None), ('status', None), ('attempt', None), ('visits', None), ('decision', None), ('exit_code', None), ('tokens', None), ('cost_usd', None), ('lease_owner', None), ('lease_expires_at', 13), ('started_at', 14), ('completed_at', 15), ('updated_at', 16)),
    ),
    ('runs.locked_run', ('_run_id',), False): (
        'SELECT workflow_runs.id, workflow_runs.tree_id, workflow_runs.status, workflow_runs.reason, workflow_runs.inputs, workflow_runs.branch, workflow_runs.base_sha, workflow_runs.head_sha, workflow_runs.base_ref, workflow_runs.worktree_path, workflow_runs.repo_path, workflow_runs.pr_url, workflow_runs.engine_state, workflow_runs.tokens, workflow_runs.cost_usd, workflow_runs.steps, workflow_runs.pause_requested, workflow_runs.cancel_requested, workflow_runs.lease_owner, workflow_runs.lease_expires_at, workflow_runs.created_at, workflow_runs.started_at, workflow_runs.completed_at, workflow_runs.updated_at, workflow_runs.priority, workflow_runs.requires, workflow_runs.queued, workflow_runs.request, workflow_runs.repo_name, workflow_runs.repo_url, workflow_runs.repo_root, workflow_runs.wake_at, workflow_runs.parent_run_id, workflow_runs.parent_step \nFROM workflow_runs \nWHERE workflow_runs.id = ?',
        (('_run_id', None, True, None),),
        (('id', None), ('tree_id', None), ('status', None), ('reason', None), ('inputs', 4), ('branch', None), ('base_sha', None), ('head_sha', None), ('base_ref', None), ('worktree_path', None), ('repo_path', None), ('pr_url', None), ('engine_state', 12), ('tokens', None), ('cost_usd', None), ('steps', None), ('pause_requested', 16), ('cancel_requested', 17), ('lease_owner', None), ('lease_expires_at', 19), ('created_at', 20), ('started_at', 21), ('completed_at', 22), ('updated_at', 23), ('priority', None), ('requires', 25), ('queued', 26), ('request', 27), ('repo_name', None), ('repo_url', None), ('repo_root', None), ('wake_at', 31), ('parent_run_id', None), ('parent_step', None)),
    ),
    ('runs.node_id', ('_run_id', '_node_key'), False): (
        'SELECT run_nodes.id \nFROM run_nodes \nWHERE run_nodes.run_id = ? AND run_nodes.node_key = ?',
        (('_run_id', None, True, None), ('_node_key', None, True, None)),
        (('id', None),),
    ),
    ('insert.WORKFLOW_RUNS', ('tree_id', 'status', 'inputs', 'base_sha', 'head_sha', 'base_ref', 'repo_path', 'tokens', 'cost_usd', 'steps', 'pause_requested', 'cancel_requested', 'lease_owner', 'lease_expires_at', 'created_at', 'updated_at', 'priority', 'queued'), False): (
        'INSERT INTO workflow_runs (tree_id, status, inputs, base_sha, head_sha, base_ref, repo_path, tokens, cost_usd, steps, pause_requested, cancel_requested, lease_owner, lease_expires_at, created_at, updated_at, priority, queued) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        (('tree_id', None, True, None), ('status', None, True, None), ('inputs', 'inputs', True, None), ('base_sha', None, True, None), ('head_sha', None, True, None), ('base_ref', None, True, None), ('repo_path', None, True, None), ('tokens', None, True, None), ('cost_usd', 'cost_usd', True, None), ('steps', None, True, None), ('pause_requested', 'pause_requested', True, None), ('cancel_requested', 'cancel_requested', True, None), ('lease_owner', None, True, None), ('lease_expires_at', 'lease_expires_at', True, None), ('created_at', 'created_at', True, None), ('updated_at', 'updated_at', True, None), ('priority', None, True, None), ('queued', 'queued', True, None)),
        None,
    ),
    ('insert.WORKFLOW_RUNS', ('tree_id', 'status', 'inputs', 'base_sha', 'head_sha', 'base_ref', 'repo_path', 'tokens', 'cost_usd', 'steps', 'pause_requested', 'cancel_requested', 'created_at', 'updated_at', 'priority', 'queued'), False): (
        'INSERT INTO workflow_runs (tree_id, status, inputs, base_sha, head_sha, base_ref, repo_path, tokens, cost_usd, steps, pause_requested, cancel_requested, created_at, updated_at, priority, queued) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        (('tree_id', None, True, None), ('status', None, True, None), ('inputs', 'inputs', True, None), ('base_sha', None, True, None), ('head_sha', None, True, None), ('base_ref', None, True, None), ('repo_path', None, True, None), ('tokens', None, True, None), ('cost_usd', 'cost_usd', True, None), ('steps', None, True, None), ('pause_requested', 'pause_requested', True, None), ('cancel_requested', 'cancel_requested', True, None), ('created_at', 'created_at', True, None), ('updated_at', 'updated_at', True, None), ('priority', None, True, None), ('queued', 'queued', True, None)),
        None,
    ),
    ('insert.RUN_NODES', ('run_id', 'tree_node_id', 'node_key', 'sequence_index', 'status', 'attempt', 'visits', 'tokens', 'cost_usd', 'updated_at'), False): (
        'INSERT INTO run_nodes (run_id, tree_node_id, node_key, sequence_index, status, attempt, visits, tokens, cost_usd, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        (('run_id', None, True, None), ('tree_node_id', None, True, None), ('node_key', None, True, None), ('sequence_index', None, True, None), ('status', None, True, None), ('attempt', None, True, None), ('visits', None, True, None), ('tokens', None, True, None), ('cost_usd', 'cost_usd', True, None), ('updated_at', 'updated_at', True, None)),
        None,
    ),
    ('insert.RUN_NODES', ('run_id', 'tree_node_id', 'node_key', 'sequence_index', 'status', 'attempt', 'visits', 'tokens', 'cost_usd', 'updated_at'), True): (
        'INSERT INTO run_nodes (run_id, tree_node_id, node_key, sequence_index, status, attempt, visits, tokens, cost_usd, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        (('run_id', None, True, None), ('tree_node_id', None, True, None), ('node_key', None, True, None), ('sequence_index', None, True, None), ('status', None, True, None), ('attempt', None, True, None), ('visits', None, True, None), ('tokens', None, True, None), ('cost_usd', 'cost_usd', True, None), ('updated_at', 'updated_at', True, None)),
        None,
    ),
    ('runs.update_run', ('engine_state', 'updated_at', '_run_id'), False): (
        'UPDATE workflow_runs SET engine_state=?, updated_at=? WHERE workflow_runs.id = ?',
        (('engine_state', 'engine_state', True, None), ('updated_at', 'updated_at', True, None), ('_run_id', None, True, None)),
        None,
    ),
    ('runs.update_run', ('branch', 'worktree_path', 'updated_at', '_run_id'), False): (
        'UPDATE workflow_runs SET branch=?, worktree_path=?, updated_at=? WHERE workflow_runs.id = ?',
        (('branch', None, True, None), ('worktree_path', None, True, None), ('updated_at', 'updated_at', True, None), ('_run_id', None, True, None)),
        None,
    ),
    ('runs.update_run', ('worktree_path', 'updated_at', '_run_id'), False): (
        'UPDATE workflow_runs SET worktree_path=?, updated_at=? WHERE workflow_runs.id = ?',
        (('worktree_path', None, True, None), ('updated_at', 'updated_at', True, None), ('_run_id', None, True, None)),
        None,
    ),
    ('runs.update_run', ('head_sha', 'updated_at', '_run_id'), False): (
        'UPDATE workflow_runs SET head_sha=?, updated_at=? WHERE workflow_runs.id = ?',
        (('head_sha', None, True, None), ('updated_at', 'updated_at', True, None), ('_run_id', None, True, None)),
        None,
    ),
    ('runs.update_run', ('wake_at', 'updated_at', '_run_id'), False): (
        'UPDATE workflow_runs SET updated_at=?, wake_at=? WHERE workflow_runs.id = ?',
        (('updated_at', 'updated_at', True, None), ('wake_at', 'wake_at', True, None), ('_run_id', None, True, None)),
        None,
    ),
    ('runs.update_run', ('status', 'reason', 'updated_at', 'completed_at', 'started_at', '_run_id'), False): (
        'UPDATE workflow_runs SET status=?, reason=?, started_at=?, completed_at=?, updated_at=? WHERE workflow_runs.id = ?',
        (('status', None, True, None), ('reason', None, True, None), ('started_at', 'started_at', True, None), ('completed_at', 'completed_at', True, None), ('updated_at', 'updated_at', True, None), ('_run_id', None, True, None)),
        None,
    ),
    ('runs.update_run', ('status', 'reason', 'updated_at', 'completed_at', '_run_id'), False): (
        'UPDATE workflow_runs SET status=?, reason=?, completed_at=?, updated_at=? WHERE workflow_runs.id = ?',
        (('status', None, True, None), ('reason', None, True, None), ('completed_at', 'completed_at', True, None), ('updated_at', 'updated_at', True, None), ('_run_id', None, True, None)),
        None,
    ),
    ('leases.leased_run', ('engine_state', 'tokens', 'cost_usd', 'steps', 'lease_expires_at', 'updated_at', '_run_id', '_owner'), False): (
        'UPDATE workflow_runs SET engine_state=?, tokens=?, cost_usd=?, steps=?, lease_expires_at=?, updated_at=? WHERE workflow_runs.id = ? AND workflow_runs.lease_owner = ? RETURNING pause_requested, cancel_requested',
        (('engine_state', 'engine_state', True, None), ('tokens', None, True, None), ('cost_usd', 'cost_usd', True, None), ('steps', None, True, None), ('lease_expires_at', 'lease_expires_at', True, None), ('updated_at', 'updated_at', True, None), ('_run_id', None, True, None), ('_owner', None, True, None)),
        None,
    ),
    ('leases.run.renew', ('_run_id', '_owner', '_expires'), False): (
        'UPDATE workflow_runs SET lease_expires_at=? WHERE workflow_runs.id = ? AND workflow_runs.lease_owner = ?',
        (('_expires', 'lease_expires_at', True, None), ('_run_id', None, True, None), ('_owner', None, True, None)),
        None,
    ),
    ('leases.node.renew', ('_run_id', '_owner', '_expires', '_key'), False): (
        'UPDATE run_nodes SET lease_expires_at=? WHERE run_nodes.run_id = ? AND run_nodes.node_key = ? AND run_nodes.lease_owner = ?',
        (('_expires', 'lease_expires_at', True, None), ('_run_id', None, True, None), ('_key', None, True, None), ('_owner', None, True, None)),
        None,
    ),
    ('leases.run.release', ('_run_id', '_owner'), False): (
        'UPDATE workflow_runs SET lease_owner=?, lease_expires_at=? WHERE workflow_runs.id = ? AND workflow_runs.lease_owner = ?',
        (('lease_owner', None, False, None), ('lease_expires_at', 'lease_expires_at', False, None), ('_run_id', None, True, None), ('_owner', None, True, None)),
        None,
    ),
    ('move.running.-.010', ('attempt', 'visits', 'decision', 'exit_code', 'tokens', 'cost_usd', '_run_id', '_node_key', '_now', '_owner', '_expires'), False): (
        "UPDATE run_nodes SET status='running', attempt=?, visits=?, decision=?, exit_code=?, tokens=?, cost_usd=?, lease_owner=?, lease_expires_at=?, started_at=?, completed_at=NULL, updated_at=? WHERE run_nodes.run_id = ? AND run_nodes.node_key = ? AND (run_nodes.status = 'failed' OR run_nodes.status = 'pending') AND (run_nodes.lease_owner IS NULL OR run_nodes.lease_owner = ? OR run_nodes.lease_expires_at < ?)",
        (('attempt', None, True, None), ('visits', None, True, None), ('decision', None, True, None), ('exit_code', None, True, None), ('tokens', None, True, None), ('cost_usd', 'cost_usd', True, None), ('_owner', None, True, None), ('_expires', 'lease_expires_at', True, None), ('_now', 'updated_at', True, None), ('_now', 'updated_at', True, None), ('_run_id', None, True, None), ('_node_key', None, True, None), ('_owner', None, True, None), ('_now', 'updated_at', True, None)),
        None,
    ),
    ('move.running.-.011', ('attempt', 'visits', 'decision', 'exit_code', 'tokens', 'cost_usd', '_run_id', '_node_key', '_now', '_owner', '_expires', '_fresh'), False): (
        "UPDATE run_nodes SET status='running', attempt=?, visits=?, decision=?, exit_code=?, tokens=?, cost_usd=?, lease_owner=?, lease_expires_at=?, started_at=?, completed_at=NULL, updated_at=? WHERE run_nodes.run_id = ? AND run_nodes.node_key = ? AND (run_nodes.status = 'failed' OR run_nodes.status = 'pending') AND run_nodes.attempt < ? AND (run_nodes.lease_owner IS NULL OR run_nodes.lease_owner = ? OR run_nodes.lease_expires_at < ?)",
        (('attempt', None, True, None), ('visits', None, True, None), ('decision', None, True, None), ('exit_code', None, True, None), ('tokens', None, True, None), ('cost_usd', 'cost_usd', True, None), ('_owner', None, True, None), ('_expires', 'lease_expires_at', True, None), ('_now', 'updated_at', True, None), ('_now', 'updated_at', True, None), ('_run_id', None, True, None), ('_node_key', None, True, None), ('_fresh', None, True, None), ('_owner', None, True, None), ('_now', 'updated_at', True, None)),
        None,
    ),
    ('move.running.pending.011', ('attempt', 'visits', 'decision', 'exit_code', 'tokens', 'cost_usd', '_run_id', '_node_key', '_now', '_owner', '_expires', '_fresh'), False): (
        "UPDATE run_nodes SET status='running', attempt=?, visits=?, decision=?, exit_code=?, tokens=?, cost_usd=?, lease_owner=?, lease_expires_at=?, started_at=?, completed_at=NULL, updated_at=? WHERE run_nodes.run_id = ? AND run_nodes.node_key = ? AND (run_nodes.status = 'completed' OR run_nodes.status = 'running' OR run_nodes.status = 'skipped') AND run_nodes.attempt < ? AND (run_nodes.lease_owner IS NULL OR run_nodes.lease_owner = ? OR run_nodes.lease_expires_at < ? OR run_nodes.status = 'running')",
        (('attempt', None, True, None), ('visits', None, True, None), ('decision', None, True, None), ('exit_code', None, True, None), ('tokens', None, True, None), ('cost_usd', 'cost_usd', True, None), ('_owner', None, True, None), ('_expires', 'lease_expires_at', True, None), ('_now', 'updated_at', True, None), ('_now', 'updated_at', True, None), ('_run_id', None, True, None), ('_node_key', None, True, None), ('_fresh', None, True, None), ('_owner', None, True, None), ('_now', 'updated_at', True, None)),
        None,
    ),
    ('move.completed.-.000', ('attempt', 'visits', 'decision', 'exit_code', 'tokens', 'cost_usd', '_run_id', '_node_key', '_now'), False): (
        "UPDATE run_nodes SET status='completed', attempt=?, visits=?, decision=?, exit_code=?, tokens=?, cost_usd=?, lease_owner=CASE WHEN (run_nodes.status = 'running') THEN NULL ELSE run_nodes.lease_owner END, lease_expires_at=CASE WHEN (run_nodes.status = 'running') THEN NULL ELSE run_nodes.lease_expires_at END, completed_at=?, updated_at=? WHERE run_nodes.run_id = ? AND run_nodes.node_key = ? AND run_nodes.status = 'running'",
        (('attempt', None, True, None), ('visits', None, True, None), ('decision', None, True, None), ('exit_code', None, True, None), ('tokens', None, True, None), ('cost_usd', 'cost_usd', True, None), ('_now', 'updated_at', True, None), ('_now', 'updated_at', True, None), ('_run_id', None, True, None), ('_node_key', None, True, None)),
        None,
    ),
    ('move.failed.-.000', ('attempt', 'visits', 'decision', 'exit_code', 'tokens', 'cost_usd', '_run_id', '_node_key', '_now'), False): (
        "UPDATE run_nodes SET status='failed', attempt=?, visits=?, decision=?, exit_code=?, tokens=?, cost_usd=?, lease_owner=CASE WHEN (run_nodes.status = 'running') THEN NULL ELSE run_nodes.lease_owner END, lease_expires_at=CASE WHEN (run_nodes.status = 'running') THEN NULL ELSE run_nodes.lease_expires_at END, completed_at=?, updated_at=? WHERE run_nodes.run_id = ? AND run_nodes.node_key = ? AND run_nodes.status = 'running'",
        (('attempt', None, True, None), ('visits', None, True, None), ('decision', None, True, None), ('exit_code', None, True, None), ('tokens', None, True, None), ('cost_usd', 'cost_usd', True, None), ('_now', 'updated_at', True, None), ('_now', 'updated_at', True, None), ('_run_id', None, True, None), ('_node_key', None, True, None)),
        None,
    ),
    ('insert.PHASE_ARTIFACTS', ('run_id', 'run_node_id', 'attempt', 'kind', 'content_text', 'content_json', 'sha256', 'created_at'), False): (
        'INSERT INTO phase_artifacts (run_id, run_node_id, attempt, kind, content_text, content_json, sha256, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        (('run_id', None, True, None), ('run_node_id', None, True, None), ('attempt', None, True, None), ('kind', None, True, None), ('content_text', None, True, None), ('content_json', 'content_json', True, None), ('sha256', None, True, None), ('created_at', 'created_at', True, None)),
        None,
    ),
    ('insert.PHASE_ARTIFACTS', ('run_id', 'run_node_id', 'attempt', 'kind', 'content_text', 'content_json', 'sha256', 'created_at'), True): (
        'INSERT INTO phase_artifacts (run_id, run_node_id, attempt, kind, content_text, content_json, sha256, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        (('run_id', None, True, None), ('run_node_id', None, True, None), ('attempt', None, True, None), ('kind', None, True, None), ('content_text', None, True, None), ('content_json', 'content_json', True, None), ('sha256', None, True, None), ('created_at', 'created_at', True, None)),
        None,
    ),
    ('insert.RUN_NODE_DIAGNOSTICS', ('run_id', 'run_node_id', 'attempt', 'outcome', 'reason', 'error_code', 'duration_ms', 'tokens', 'cost_usd', 'event_count', 'details', 'created_at'), False): (
        'INSERT INTO run_node_diagnostics (run_id, run_node_id, attempt, outcome, reason, error_code, duration_ms, tokens, cost_usd, event_count, details, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        (('run_id', None, True, None), ('run_node_id', None, True, None), ('attempt', None, True, None), ('outcome', None, True, None), ('reason', None, True, None), ('error_code', None, True, None), ('duration_ms', None, True, None), ('tokens', None, True, None), ('cost_usd', 'cost_usd', True, None), ('event_count', None, True, None), ('details', 'details', True, None), ('created_at', 'created_at', True, None)),
        None,
    ),
    ('insert.ROUTING_DECISIONS', ('run_id', 'run_node_id', 'attempt', 'decision', 'target', 'priority', 'edge_id', 'reason', 'created_at', 'explanation'), False): (
        'INSERT INTO routing_decisions (run_id, run_node_id, attempt, decision, target, priority, edge_id, reason, created_at, explanation) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        (('run_id', None, True, None), ('run_node_id', None, True, None), ('attempt', None, True, None), ('decision', None, True, None), ('target', None, True, None), ('priority', None, True, None), ('edge_id', None, True, None), ('reason', None, True, None), ('created_at', 'created_at', True, None), ('explanation', 'explanation', True, None)),
        None,
    ),
    ('insert.RUN_NODE_STREAM_EVENTS', ('workflow_run_id', 'run_node_id', 'attempt', 'sequence', 'event_type', 'timestamp', 'content', 'metadata'), True): (
        'INSERT INTO run_node_stream_events (workflow_run_id, run_node_id, attempt, sequence, event_type, timestamp, content, metadata) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        (('workflow_run_id', None, True, None), ('run_node_id', None, True, None), ('attempt', None, True, None), ('sequence', None, True, None), ('event_type', None, True, None), ('timestamp', 'timestamp', True, None), ('content', None, True, None), ('metadata', 'metadata', True, None)),
        None,
    ),
}
