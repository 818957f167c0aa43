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
