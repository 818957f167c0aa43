"""The tutor's judgement, move by move, against a real project and the real confined tool boxes."""

from ragix_core.reasoning_tutor.tutor import ACCEPTED, HELD, REJECTED, WON

from .conftest import assert_, make_tutor, move, propose, respond


def test_an_assertion_without_evidence_is_held_and_blocks_until_an_action_settles_it(project):
    t = make_tutor(project)
    v = t.judge(assert_("line_count", "README.md", "3"))
    assert (v.status, v.kind) == (HELD, "undecidable") and "wc -l README.md" in v.reason
    blocked = t.judge(assert_("exists", "README.md"))
    assert blocked.status == REJECTED and "C1" in blocked.reason
    assert t.judge(respond("3 lines")).status == REJECTED
    v = t.judge(propose("wc -l README.md"))
    assert v.status == ACCEPTED and "C1 is now a validated truth" in v.reason
    assert [c.text() for _, c in t.truths()] == ['line_count("README.md", 3)']
    assert t.tally.claims_rejected == 0  # proven by the action it asked for: not a hallucination


def test_an_action_that_does_not_settle_the_claim_closes_it_as_unproven(project):
    t = make_tutor(project)
    t.judge(assert_("line_count", "README.md", "3"))
    v = t.judge(propose("ls src"))
    assert "stays unproven" in v.reason and t.graph.nodes["C1"].status == "unproven"
    assert t.tally.claims_rejected == 1 and t.pending is None


def test_refuted_and_ill_typed_claims_are_rejected_with_reasons(project):
    t = make_tutor(project)
    t.judge(propose("cat config/app.ini"))
    v = t.judge(assert_("setting", "config/app.ini", "port", "9090"))
    assert (v.status, v.kind) == (REJECTED, "refuted") and "8080" in v.reason
    v = t.judge(assert_("line_count", "README.md", "three"))
    assert (v.status, v.kind) == (REJECTED, "ill_typed") and "number" in v.reason
    v = t.judge(move(move="ASSERT", claim={"predicate": "size_of", "args": ["README.md"]}))
    assert v.kind == "ill_typed" and "unknown predicate" in v.reason
    assert t.tally.claims == 3 and t.tally.claims_rejected == 3 and t.tally.hallucination_rate == 1.0
    assert t.judge(assert_("setting", "config/app.ini", "port", "8080")).kind == "provable"
    assert t.judge(assert_("setting", "config/app.ini", "port", "8080")).kind == "repetition"


def test_the_assert_tally_counts_asserts_whose_own_verdict_is_rejected(project):
    """Issue 14's hallucination rate: rejected ASSERT moves / ASSERT moves. Held ASSERTs, REFORMULATE and
    RESPOND's claims are not in it (they are in the broader claims tally)."""
    t = make_tutor(project)
    assert t.judge(assert_("line_count", "README.md", "3")).status == HELD  # 1 held
    assert t.judge(assert_("exists", "README.md")).status == REJECTED  # 2 blocked while C1 is held
    t.judge(propose("wc -l README.md"))  # C1 validated
    assert t.judge(assert_("line_count", "README.md", "3")).kind == "repetition"  # 3 already validated
    t.judge(propose("cat config/app.ini"))
    assert t.judge(assert_("setting", "config/app.ini", "port", "9090")).kind == "refuted"  # 4
    assert t.judge(assert_("line_count", "README.md", "three")).kind == "ill_typed"  # 5
    assert t.judge(assert_("setting", "config/app.ini", "port", "8080")).status == ACCEPTED  # 6
    assert t.judge(assert_("line_count", "src/app.py", "7")).status == HELD  # 7 held ...
    t.judge(propose("wc -l src/app.py"))  # ... then refuted by its action: still not a rejected ASSERT
    assert t.judge(move(move="REFORMULATE", target="C9", claim={"predicate": "exists", "args": ["x"]})).status == REJECTED
    assert t.judge(respond("README.md has 4 lines.", ("line_count", "README.md", "4"))).status == REJECTED
    assert (t.tally.asserts, t.tally.asserts_rejected) == (7, 4) == (t.tally.by_move["ASSERT"], 4)
    assert t.tally.to_dict()["assert_rejection_rate"] == round(4 / 7, 4)
    # The broader tally: the refuted, the ill-typed, the held one refuted later and RESPOND's claim, over the
    # claims of 6 ASSERTs (the blocked one made none) and RESPOND's one.
    assert (t.tally.claims_rejected, t.tally.claims) == (4, 7)


def test_reformulate_replaces_an_undecidable_claim(project):
    t = make_tutor(project)
    t.judge(assert_("contains", "README.md", "demo"))
    t.judge(propose("head -n 1 README.md"))  # "# Demo": case differs, so C1 stays unproven
    assert t.graph.nodes["C1"].status == "unproven"
    v = t.judge(move(move="REFORMULATE", target="C1", claim={"predicate": "contains", "args": ["README.md", "Demo"]}))
    assert v.kind == "provable" and t.graph.nodes["C1"].status == "superseded"
    assert any(e.src == "C1" and e.dst == "C2" for e in t.graph.edges)
    assert t.judge(move(move="REFORMULATE", target="C2", claim={"predicate": "exists", "args": ["x"]})).status == REJECTED


def test_the_tutor_decides_read_or_write_and_gates_writes(project):
    t = make_tutor(project, writes=True, truths_before_write=1)
    v = t.judge(propose("rm tmp/cache.tmp", mode="read"))
    assert (v.status, v.kind) == (REJECTED, "policy") and "declared 'read'" in v.reason
    v = t.judge(propose("rm tmp/cache.tmp", mode="write"))
    assert v.kind == "policy" and "need 1 validated truths" in v.reason
    assert (project / "tmp/cache.tmp").exists()
    t.judge(propose("cat tmp/cache.tmp"))
    t.judge(assert_("contains", "tmp/cache.tmp", "scratch"))
    v = t.judge(propose("rm tmp/cache.tmp", mode="write"))
    assert v.status == ACCEPTED and not (project / "tmp/cache.tmp").exists()
    # What was observed before the write is stale now: the truth no longer counts.
    assert t.truths() == []
    assert t.tally.policy == 2


def test_writes_are_refused_when_the_run_may_not_write(project):
    t = make_tutor(project, writes=False, truths_before_write=0)
    v = t.judge(propose("touch new.txt", mode="write"))
    assert v.kind == "policy" and "not allowed in this run" in v.reason and not (project / "new.txt").exists()


def test_shell_syntax_and_confinement_refusals_are_policy_violations(project):
    t = make_tutor(project)
    v = t.judge(propose("cat README.md; rm -rf /"))
    assert v.kind == "policy" and "chaining" in v.reason
    v = t.judge(propose("cat /etc/passwd"))
    assert v.kind == "policy" and "refused" in v.reason
    assert t.score == 2 * t.p.policy and t.graph.nodes["A1"].status == "refused"


def test_repeated_commands_and_moves_are_loops(project):
    t = make_tutor(project)
    t.judge(propose("wc -l README.md"))
    v = t.judge(propose("wc -l README.md"))
    assert v.kind == "repetition" and "A1" in v.reason
    # quoting and spacing aside it is the same command (measured: `"*.py"` for `'*.py'` was played again)
    t.judge(propose("grep -c 'a b' README.md"))
    assert t.judge(propose('grep  -c "a b"   README.md')).kind == "repetition"
    ask = move(move="ASK", question={"predicate": "line_count", "args": ["README.md", "?"]})
    assert t.judge(ask).status == ACCEPTED
    assert t.judge(ask).kind == "repetition"


def test_stalls_end_the_game(project):
    t = make_tutor(project, stall_turns=2)
    t.judge(propose("wc -l README.md"))
    for i in range(4):
        t.judge(move(move="CHALLENGE", target=f"X{i}", reason="?"))
    assert t.stalled and t.idle_turns == 4


def test_ask_answers_from_facts_and_later_evidence_answers_open_questions(project):
    t = make_tutor(project)
    v = t.judge(move(move="ASK", question={"predicate": "setting", "args": ["config/app.ini", "port", "?p"]}))
    assert "open" in v.reason and t.graph.nodes["Q1"].status == "open"
    t.judge(propose("cat config/app.ini"))
    assert t.graph.nodes["Q1"].status == "answered"
    t.judge(assert_("setting", "config/app.ini", "port", "8080"))
    link = t.judge(move(move="LINK", claim="C1", question="Q1"))
    assert link.status == ACCEPTED
    bad = t.judge(move(move="LINK", claim="C9", question="Q1"))
    assert bad.status == REJECTED


def test_challenge_upholds_only_when_the_claim_no_longer_holds(project):
    t = make_tutor(project, writes=True, truths_before_write=1)
    t.judge(propose("cat tmp/cache.tmp"))
    t.judge(assert_("contains", "tmp/cache.tmp", "scratch"))
    assert t.judge(move(move="CHALLENGE", target="C1", reason="sure?")).kind == "challenge_failed"
    t.judge(propose("rm tmp/cache.tmp", mode="write"))
    v = t.judge(move(move="CHALLENGE", target="C1", reason="the file was removed"))
    assert v.kind == "challenge_upheld" and t.graph.nodes["C1"].status == "stale"


def test_respond_wins_only_with_proven_obligations_stated_and_nothing_unproven(project):
    t = make_tutor(project, goal="Which setting is missing at startup, per logs/app.log?",
                   accept=["contains(logs/app.log, ?line)"])
    v = t.judge(respond("The missing key is payment_key."))
    assert v.status == REJECTED and "not met" in v.reason
    t.judge(propose("grep ERROR logs/app.log"))
    v = t.judge(respond("The missing key is payment_key, see config/secrets.ini.",
                        ("contains", "logs/app.log", "missing key 'payment_key'")))
    assert v.status == REJECTED and "config/secrets.ini" in v.reason and "?line=" in v.reason
    v = t.judge(respond("The log says: missing key 'payment_key'.",
                        ("contains", "logs/app.log", "missing key 'payment_key'")))
    assert v.status == WON and t.won and t.answer.startswith("The log says")
    assert all(t.graph.grounded(n.id) for n in t.graph.of_kind("claim") if n.status == "validated")


def test_respond_rejects_hallucinated_claims_inside_it(project):
    t = make_tutor(project, accept=["line_count(README.md, ?n)"])
    t.judge(propose("wc -l README.md"))
    v = t.judge(respond("README.md has 4 lines.", ("line_count", "README.md", "4")))
    assert v.status == REJECTED and "refutable" in v.reason
    assert t.tally.claims_rejected == 1
    assert t.judge(respond("README.md has 3 lines.", ("line_count", "README.md", "3"))).status == WON


def test_hints_point_at_evidence_for_unmet_obligations_without_naming_unseen_values(project):
    from ragix_core.reasoning_tutor.hints import hints

    t = make_tutor(project, accept=["contains(config/app.ini, ?)", "line_count(README.md, ?n)"])
    before = " ".join(hints(t))
    assert "no evidence yet" in before and "wc -l README.md" in before and "8080" not in before
    t.judge(propose("cat config/app.ini"))
    after = " ".join(hints(t))
    assert "line facts of config/app.ini can prove it" in after
    t.judge(propose("wc -l README.md"))
    assert any("line_count(\"README.md\", 3) meets obligation" in h for h in hints(t))


def test_suggestions_are_complete_moves_built_from_observed_facts_or_an_instruction(project):
    from ragix_core.reasoning_tutor.suggest import suggest

    t = make_tutor(project, accept=["setting(config/app.ini, workers, ?)", "value(?, ?total)"])
    first = suggest(t)
    assert first.moves == [{"move": "PROPOSE", "intent": 'evidence for setting("config/app.ini", "workers", ?)',
                            "command": "grep -n workers config/app.ini", "mode": "read"}]
    t.judge(propose("cat config/app.ini"))
    second = suggest(t)
    assert second.moves == [] and "calc followed by the expression" in second.note  # the arithmetic is the player's
    t.judge(propose("calc 4*6"))
    final = suggest(t)
    assert final.moves == [{"move": "RESPOND", "answer": "config/app.ini sets workers to 4. 4*6 = 24.",
                            "claims": [{"predicate": "setting", "args": ["config/app.ini", "workers", "4"]},
                                       {"predicate": "value", "args": ["4*6", "24"]}]}]
    assert "UPPERCASE" not in final.render() and "ANSWER" not in final.render()


def test_a_find_exec_is_run_as_the_pipe_into_xargs_like_the_main_path(project):
    # Measured (paraphrase set, c5f825b): a cross-check `find . -type f -name '*.py' -exec wc -l {} +` was refused,
    # a turn lost, where the main path runs the same command as `find … -print0 | xargs -0 wc -l`.
    t = make_tutor(project)
    v = t.judge(propose("find . -name 'README.md' -exec wc -l {} +"))
    assert v.status == ACCEPTED and v.kind == "executed", v.reason
    obs = t.graph.nodes["O1"].data
    assert "README.md" in obs["stdout"] and "xargs" in obs["command"]
    assert "[ragix]" in (obs.get("stderr") or "")
    v = t.judge(propose("find . -name 'README.md' -exec rm {} +"))  # a writer stays refused in a read turn
    assert v.status == REJECTED and (project / "README.md").exists()
