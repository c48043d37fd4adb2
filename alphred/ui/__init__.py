"""``alphred ui``: a web view over the run database (SPEC §11), on Starlette and uvicorn.

Nothing here is imported by other commands: ``alphred ui`` loads it (and starlette/uvicorn) on demand.
Modules: ``server`` (bind, token, uvicorn), ``app`` (routes, API, security middleware), ``security``,
``data`` (reads through the store), ``actions`` (approve/reject/pause/cancel/resume), ``sse`` (live
streams), ``graph`` (layout and SVG), ``html``/``runs_page``/``run_page`` (server-side HTML), ``static/``.
"""
