"""The page in a real browser: Debian's chromium driven by playwright (launched by its path, never
downloaded). A run starts from the form, its live view updates while the scripted model answers,
and the trace opens afterwards. A screenshot of each view is saved as a test artefact (see the
``shots`` fixture in conftest.py)."""

from __future__ import annotations

from playwright.sync_api import expect

from ragix_core.config import parse_config
from tests.serve.conftest import fenced

GOAL = "How many lines does README.md have?"
PLANNED = "Show the docs"


def plan(*commands):
    return {"objective": "list the docs", "validation": "v", "confidence": 0.5,
            "steps": [{"num": i + 1, "description": c, "tool": c.split()[0], "args": {"command": c}}
                      for i, c in enumerate(commands)]}


def test_a_graph_run_started_from_the_form_is_watched_live_and_read_back(serve, browser, shots):
    server = serve({GOAL: [fenced("wc -l README.md")]}, delay=0.8)  # its wc line is the answer as printed
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    requested = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(server.url + "/")
    page.screenshot(path=str(shots / "01-form.png"))
    page.get_by_label("Goal").fill(GOAL)  # the keyboard path: fill, then Enter on the button
    page.get_by_role("button", name="Start run").focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**/runs/*")
    lit = page.locator(".graph .node.active")
    expect(lit).to_have_count(1, timeout=15000)  # the live view names the node being run
    page.screenshot(path=str(shots / "02-graph-live.png"))
    expect(page.locator(".live")).to_have_attribute("data-status", "finished", timeout=30000)
    expect(page.locator(".answer")).to_contain_text("README.md has 19 lines.")
    step = page.locator(".step").first
    expect(step).to_contain_text("wc -l README.md")
    expect(step).to_contain_text("exit 0")
    expect(step.locator("pre")).to_contain_text("19 README.md")
    expect(page.locator(".graph .node.active")).to_have_count(0)
    page.screenshot(path=str(shots / "03-graph-done.png"), full_page=True)

    run_id = page.url.rsplit("/", 1)[1]
    page.goto(server.url + "/runs")
    row = page.get_by_role("row").filter(has_text=run_id)
    expect(row).to_contain_text("unconfirmed")  # one command's short output
    page.screenshot(path=str(shots / "04-past-runs.png"))
    row.get_by_role("link", name=run_id).click()
    expect(page.locator(".step").first).to_contain_text("19 README.md")
    trace = page.request.get(f"{server.url}/api/runs/{run_id}/trace").json()
    assert trace[0]["kind"] == "run_start" and trace[-1]["kind"] == "run_end"
    assert requested and all(url.startswith(server.url) for url in requested)  # no CDN, nothing fetched elsewhere
    assert any(url.endswith("/static/htmx-ext-sse-2.2.4.min.js") for url in requested)


def test_a_planned_run_shows_each_step_with_its_confined_command(serve, browser, shots):
    server = serve({PLANNED: [{"complexity": "MODERATE"}, plan("cat docs/missing.md"),
                              {"diagnosis": "missing", "new_plan_summary": "list"}, plan("ls docs"),
                              "docs holds guide.md and notes.md"]}, delay=0.3,
                   config=parse_config({"reasoning": {"routing": "classify_first"}}))
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.goto(server.url + "/")
    page.get_by_label("Goal").fill(PLANNED)
    page.get_by_role("button", name="Start run").click()
    expect(page.locator(".live")).to_have_attribute("data-status", "finished", timeout=30000)
    plans = page.locator(".plan")
    expect(plans).to_have_count(2)
    expect(plans.nth(0).locator(".step")).to_contain_text("exit 1")
    expect(plans.nth(1).locator(".step pre")).to_contain_text("guide.md")
    expect(page.locator(".graph .node", has_text="REFLECT")).to_contain_text("×1")
    page.screenshot(path=str(shots / "05-graph-replanned.png"), full_page=True)


def test_a_refused_run_shows_the_reason_on_the_form(serve, browser, shots):
    server = serve({}, max_goal_chars=20)
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.goto(server.url + "/")
    page.evaluate("document.getElementById('goal').removeAttribute('maxlength')")
    page.get_by_label("Goal").fill("a goal longer than twenty characters")
    page.get_by_role("button", name="Start run").click()
    expect(page.get_by_role("alert")).to_contain_text("the limit is 20")
