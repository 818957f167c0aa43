"""One run of the embedded default model (Qwen2.5-Coder-1.5B, llama.cpp in process) started from the
page: the real backend, the real confined tools, the real browser. The scripted runs of the other
tests show each view; this one shows the page holds a real run from the form to the trace."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ragix_core.config import parse_config
from ragix_core.serve.settings import ServeSettings
from tests.serve.conftest import LiveServer

pytestmark = pytest.mark.slow

GOAL = "How many lines does README.md have?"


def test_a_real_model_run_started_from_the_page_is_shown_live_and_read_back(project, browser, shots):
    # Seeded samples: any sampled draw of the main path is repeatable, as the greedy one is.
    config = parse_config({"reasoning": {"voting": {"seed": 7}}})
    server = LiveServer(ServeSettings(roots={"project": project}, config=config, client_factory=None))
    try:
        page = browser.new_page(viewport={"width": 1366, "height": 768})
        page.goto(server.url + "/")
        page.get_by_label("Goal").fill(GOAL)
        page.get_by_role("button", name="Start run").click()
        page.wait_for_url("**/runs/*")
        expect(page.locator(".live")).to_have_attribute("data-status", "finished", timeout=600_000)
        step = page.locator(".step").first
        expect(step).to_contain_text("README.md")  # the command the model wrote, as it ran confined
        expect(step).to_contain_text("exit 0")
        expect(page.locator(".answer")).to_contain_text("19")  # the mock repo's README has 19 lines
        page.screenshot(path=str(shots / "10-graph-real-model.png"), full_page=True)
        run_id = page.url.rsplit("/", 1)[1]
        trace = page.request.get(f"{server.url}/api/runs/{run_id}/trace").json()
        assert any(e["kind"] == "llm_call" for e in trace) and trace[-1]["kind"] == "run_end"
    finally:
        server.stop()
