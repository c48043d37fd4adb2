"""The effect interpreter: the loop that feeds the engine and carries out its effects (attempts, parallel
branches, take-over, persistence, checks, command phases, the event sink, worktree cleanup)."""
