"""Use cases behind the CLI and the web view: run, resume, retry, approve, submit, worker, gc."""
