"""The web view lists a run's artifacts (SPEC §17) with download links, under the token rules of §11: an
artifact is served as an attachment, never as a page of the view's origin."""

from __future__ import annotations

from typing import Any

from uihelpers import Runs

ARTIFACTS = """\
alphred: 1
key: arts
phases:
  write:
    type: command
    run: |
      mkdir -p "$ALPHRED_ARTIFACTS/report dir"
      printf '<script>alert(1)</script>' > "$ALPHRED_ARTIFACTS/report dir/x.html"
      printf 'plain' > "$ALPHRED_ARTIFACTS/plan.md"
"""


def test_the_run_page_lists_artifacts_and_serves_them_as_downloads(runs: Runs, make_client: Any) -> None:
    status = runs.run(ARTIFACTS, name="arts.yaml")
    run_id = status["run_id"]
    client = make_client()
    page = client.get(f"/runs/{run_id}").text
    assert '<section id="artifacts" data-live><h2>Artifacts</h2>' in page
    assert f'href="/runs/{run_id}/artifacts/report%20dir/x.html" download>report dir/x.html</a>' in page
    assert "<script>alert(1)</script>" not in page
    listed = client.get(f"/api/runs/{run_id}/artifacts").json()
    assert [(a["path"], a["size"]) for a in listed] == [("plan.md", 5), ("report dir/x.html", 25)]
    got = client.get(f"/runs/{run_id}/artifacts/report%20dir/x.html")
    assert got.status_code == 200 and got.content == b"<script>alert(1)</script>"
    assert got.headers["content-type"] == "application/octet-stream"
    assert got.headers["content-disposition"] == "attachment; filename*=UTF-8''x.html"
    assert (
        got.headers["content-security-policy"].startswith("sandbox,")
        and got.headers["x-content-type-options"] == "nosniff"
    )
    missing = client.get(f"/runs/{run_id}/artifacts/nope.md")
    assert missing.status_code == 404
    assert client.get(f"/runs/{run_id + 1}/artifacts/plan.md").status_code == 404
    live = client.get(f"/runs/{run_id}/live").json()
    assert "plan.md" in live["sections"]["artifacts"]


def test_artifacts_need_the_token_like_every_read(runs: Runs, make_client: Any) -> None:
    run_id = runs.run(ARTIFACTS, name="arts.yaml")["run_id"]
    anonymous = make_client(token=False)
    assert anonymous.get(f"/runs/{run_id}/artifacts/plan.md").status_code == 403
    assert anonymous.get(f"/api/runs/{run_id}/artifacts").status_code == 403
    assert make_client().get(f"/runs/{run_id}/artifacts/plan.md").content == b"plain"
