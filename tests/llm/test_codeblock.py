from ragix_core.llm.codeblock import extract_command


def test_first_fenced_block_first_command_line():
    reply = "To count the lines:\n```bash\n# count\n$ wc -l README.md\nsort x\n```\nand then ```sh\nls\n```"
    assert extract_command(reply) == "wc -l README.md"


def test_inline_code_when_no_block_and_none_when_nothing():
    assert extract_command("Run `grep -rn TODO .` to find them.") == "grep -rn TODO ."
    assert extract_command("I cannot help with that.") is None
    assert extract_command("```\n\n```") is None


def test_unterminated_block_is_still_read():
    assert extract_command("```\nfind . -name '*.md'") == "find . -name '*.md'"


def test_every_command_of_the_first_block_with_its_comment():
    from ragix_core.llm.codeblock import extract_commands
    reply = ("Plan:\n```sh\n# the Markdown files, by size\nfind . -name '*.md' |\n  xargs wc -l \\\n  | sort -n\n\n"
             "$ grep -rn TODO .\n# a comment left at the end\n```\n```sh\nls\n```")
    assert extract_commands(reply, 5) == [("the Markdown files, by size", "find . -name '*.md' | xargs wc -l | sort -n"),
                                          ("", "grep -rn TODO .")]
    assert extract_commands(reply, 1) == [("the Markdown files, by size", "find . -name '*.md' | xargs wc -l | sort -n")]


def test_commands_skip_blocks_of_comments_and_drop_cut_and_overlong_lines():
    from ragix_core.llm.codeblock import MAX_COMMAND_CHARS, extract_commands
    assert extract_commands("```\n# only a comment\n```\n```bash\nwc -l a.md\n```", 3) == [("", "wc -l a.md")]
    # a reply cut mid-pipeline: the finished command stays, the cut one is not run half-written
    assert extract_commands("```sh\ncat a.md\nfind . |", 3) == [("", "cat a.md")]
    assert extract_commands("```sh\ngrep " + "x" * MAX_COMMAND_CHARS + " .\nls docs\n```", 3) == [("", "ls docs")]
    assert extract_commands("No block: `wc -l a.md`.", 3) == []


def test_a_reply_that_is_one_json_object_gives_its_command():
    assert extract_command('{"command": "grep -rn \'\\\\bport\\\\b\' ."}') == "grep -rn '\\bport\\b' ."
    assert extract_command(' {"command": "ls docs"} ') == "ls docs"
    # not a command: another key, a non-string, JSON inside prose, broken JSON
    for reply in ('{"cmd": "ls"}', '{"command": 3}', 'I would run {"command": "ls"}', '{"command": "ls"'):
        assert extract_command(reply) is None, reply
