"""Pull requests through ``gh`` (GitHub) and ``az`` (Azure DevOps)."""
