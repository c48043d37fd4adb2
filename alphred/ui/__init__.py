"""``alphred ui``: a web view over the run database (SPEC §11), on Starlette and uvicorn.

Nothing here is imported by other commands: ``alphred ui`` loads it (and starlette/uvicorn) on demand.
Modules: ``server`` (bind, printed URL, uvicorn), ``app`` (routes, API, errors), ``middleware`` (token,
cookie, headers, the last net under every request), ``security`` (the rules), ``data`` (reads through the
store), ``controls`` (approve/reject/pause/cancel/resume), ``sse`` (live streams), ``graph_svg`` (the
workflow graph, placed by ``alphred.workflow.layout``), ``timeline_svg`` (attempts per branch),
``html``/``runs_page``/``run_page``/``reports_html`` (server-side HTML), ``static/``.
"""
