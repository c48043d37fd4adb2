"""Set-up shared by the tests, used from one place instead of copied per file.

- ``repos``: a git repository isolated from the machine's git configuration, with a first commit; the
  environment of a child process; a bare ``origin``.
- ``processes``: ``alphred`` as a child process, process groups and liveness, waiting on a condition with a
  generous deadline, children released at the same instant (a barrier, not a sleep).
- ``runs``: a run driven through the CLI in a repository, with its SQLite file read beside it.
- ``cli``: the CLI in this process through click's runner, a workflow file written for it.
- ``scm``: a repository with a local bare ``origin`` and fake ``gh``/``az`` on PATH.
"""
