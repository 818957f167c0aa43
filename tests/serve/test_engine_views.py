"""Each engine's live view in the browser, from a run started on the page's form with a scripted
model: the contractive tree with entropy per node, the tutor's moves with verdicts, research rounds
with the critic's verdict and a citation that opens its chunk, chat steps that fold."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.reasoning_slim.test_engine import Q as TREE_QUESTION, split_client
from tests.research.conftest import ScriptedLLM as ResearchLLM, analyst, critic, label, write_collection, writer
from tests.scripted_llm import ScriptedLLM

def run_from_form(server, browser, goal: str, engine: str):
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.goto(server.url + "/")
    page.get_by_label("Goal").fill(goal)
    page.get_by_label("Engine").select_option(engine)
    page.get_by_role("button", name="Start run").click()
    page.wait_for_url("**/runs/*")
    return page


def finished(page) -> None:
    expect(page.locator(".live")).to_have_attribute("data-status", "finished", timeout=30000)


def test_the_contractive_tree_grows_with_entropy_per_node(serve, browser, shots):
    server = serve(model=split_client(), delay=0.2)
    page = run_from_form(server, browser, TREE_QUESTION, "contractive")
    expect(page.locator(".tnode").first).to_be_visible(timeout=15000)  # the root, before the run ends
    finished(page)
    nodes = page.locator(".tnode")
    expect(nodes).to_have_count(4)
    expect(nodes.first.locator(".entropy").first).to_have_text("H=0.65")  # the root's samples disagreed
    expect(page.locator(".tstate-pruned")).to_have_count(1)
    expect(page.locator(".answer")).to_contain_text("Wednesday")
    page.screenshot(path=str(shots / "06-tree.png"), full_page=True)


def test_tutor_moves_show_their_commands_and_verdicts(serve, browser, shots):
    goal = "How many lines does README.md have?"
    model = ScriptedLLM([
        {"move": "PROPOSE", "intent": "count", "command": "wc -l README.md", "mode": "read"},
        "```sh\ncat README.md | wc -l\n```",  # no acceptance criteria: the short output is cross-checked first
        {"move": "RESPOND", "answer": "README.md has 19 lines.",
         "claims": [{"predicate": "line_count", "args": ["README.md", "19"]}]}])
    server = serve(model=model, delay=0.3)
    page = run_from_form(server, browser, goal, "tutor")
    finished(page)
    rows = page.locator(".moves tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(0)).to_contain_text("wc -l README.md")
    expect(rows.nth(1)).to_contain_text("cat README.md | wc -l")
    expect(rows.nth(2).locator(".status")).to_contain_text("won")
    page.screenshot(path=str(shots / "07-tutor.png"), full_page=True)
    run_id = page.url.rsplit("/", 1)[1]
    mermaid = page.request.get(f"{server.url}/api/runs/{run_id}/mermaid")
    assert mermaid.ok and mermaid.text().startswith(("flowchart", "graph")) and "README.md" in mermaid.text()


def test_research_rounds_show_the_critic_and_a_citation_opens_its_chunk(serve, browser, shots, tmp_path):
    docs = write_collection(tmp_path / "docs")
    model = ResearchLLM([lambda m: analyst("Quellmere", [("c", label(m, "official/vantoria.html"),
                                                          "capital of Vantoria is Quellmere")]),
                         critic("PASS"), writer("Quellmere [S1].")])
    server = serve(model=model, delay=0.2, roots={"docs": docs})
    page = run_from_form(server, browser, "What is the capital of Vantoria?", "research")
    finished(page)
    critic_turn = page.locator(".round li", has_text="critic")
    expect(critic_turn).to_contain_text("PASS")
    citation = page.locator(".citations a").first
    expect(citation).to_contain_text("official/vantoria.html#")
    citation.click()
    expect(page.locator("#chunk")).to_contain_text("Quellmere")
    # The chunk viewer is outside the pushed view: a push that follows "finished" cannot swap it away.
    expect(page.locator("#live #chunk")).to_have_count(0)
    page.screenshot(path=str(shots / "08-research.png"), full_page=True)
    run_id = page.url.rsplit("/", 1)[1]
    items = page.request.get(f"{server.url}/api/runs/{run_id}/items").json()
    assert items[0]["@type"] == "Item" and items[0]["schema_object"]["citations"][0]["path"] == "official/vantoria.html"


def test_chat_steps_fold_and_unfold(serve, browser, shots):
    # The default orchestrator writes free text, which has no bare thought: a reply whose written-out
    # arithmetic is wrong is the step that is not the answer yet (ragix sends back the computed value,
    # chat/arithmetic.py), with no tool and so no sandbox needed. Steps: orchestrator, orchestrator, writer.
    model = ScriptedLLM(["The user greets me, and 2 + 2 = 5.", "Hello to you too."])
    server = serve(model=model, delay=0.5)
    page = run_from_form(server, browser, "hello there", "chat")
    steps = page.locator(".chat-step")
    expect(steps.nth(1)).to_be_visible(timeout=15000)  # the newest step is open, the ones before it closed
    expect(steps.first).not_to_have_attribute("open", "")
    steps.first.locator("summary").click()  # opened while the run goes on: the later pushes keep it open
    finished(page)
    expect(steps.first).to_have_attribute("open", "")
    expect(steps.first.locator(".thought")).to_contain_text("The user greets me")  # what the orchestrator wrote
    steps.first.locator("summary").click()
    expect(steps).to_have_count(3)
    first = steps.first
    expect(first).not_to_have_attribute("open", "")
    first.locator("summary").focus()
    page.keyboard.press("Enter")  # a step opens from the keyboard
    expect(first).to_have_attribute("open", "")
    expect(page.locator(".answer")).to_contain_text("Hello to you too.")
    page.screenshot(path=str(shots / "09-chat.png"), full_page=True)
