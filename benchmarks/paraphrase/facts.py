"""The facts of the paraphrase set: what is asked about the sqlparse tree, three ways, and how the answer
is computed from the files (never typed in).

The three phrasings of a fact ask exactly the same thing: a plain question, a casual or indirect one, and
one in other words. They were written by hand, as users write, not made from one template. Paths are
relative to the project root (the working directory of every run).

An answer is a list of expected patterns (eval/matching.py: all must be in the reply) and, where one
typical wrong answer is easy to name and a right reply has no reason to mention it, forbidden patterns
(the runner-up of a "which is the largest" question). A file may be named by its path, its base name
when no other file shares it, or its dotted module name. Levels: "easy" is one ordinary command;
"hard" needs a pipeline, two steps, or reading code structure.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Callable, List, Sequence, Tuple

from benchmarks.paraphrase.source_tree import Tree

__all__ = ["Answer", "Fact", "FACTS"]

MAX_NAMES = 8  # a longer list is a chore to check and to write; ask for its count instead


@dataclass
class Answer:
    text: str  # the answer as a reviewer reads it; it must pass its own patterns
    expected: List[str]
    forbidden: List[str] = field(default_factory=list)


@dataclass
class Fact:
    slug: str
    kind: str
    level: str  # "easy" or "hard"
    phrasings: Tuple[str, str, str]
    answer: Callable[[Tree], Answer]


def _whole(text: str) -> str:
    """A regex for ``text`` not glued to a longer name ("offset" not in "offsets" nor "_offset")."""
    return rf"(?<!\w){re.escape(text)}(?!\w)"


def word(name: str) -> str:
    return "re:" + _whole(name)


def exact(name: str) -> str:
    """A whole word in this case only: the class Function, not the word "function"."""
    return f"re:(?-i:{_whole(name)})"


def file_pattern(t: Tree, path: str) -> str:
    base = path.rsplit("/", 1)[-1]
    if t.is_unique_name(path):
        alts = [_whole(base)]
    elif "/" not in path:  # the root's README.md, not benchmarks/README.md
        alts = [r"(?<![\w/])(?:\./)?" + re.escape(base) + r"(?!\w)"]
    else:  # "tokens.py" alone could be another file: its directory must be said too
        parent = path.rsplit("/", 2)[-2]
        alts = [_whole(f"{parent}/{base}"), _whole(base) + r"[^\n]{0,60}" + _whole(parent),
                _whole(parent) + r"[^\n]{0,60}" + _whole(base)]
    if path.endswith(".py") and not base == "__init__.py":
        alts.append(_whole(t.module_of(path)))
    return "re:" + "|".join(alts)


def number(n: int, *also: str) -> Answer:
    return Answer(str(n), [str(n), *also])


def names(items: Sequence[str], pattern: Callable[[str], str] = word) -> Answer:
    if not 1 <= len(items) <= MAX_NAMES:
        raise ValueError(f"{len(items)} names: not a fair answer to list")
    return Answer(", ".join(items), [pattern(i) for i in items])


def files(t: Tree, paths: Sequence[str]) -> Answer:
    return names(paths, lambda p: file_pattern(t, p))


def ranked(t: Tree, paths: Sequence[str], measure: Callable[[str], Tuple[int, int]], unit: str,
           lowest: bool = False) -> Answer:
    """The first file by ``measure`` (a value's lowest and highest honest reading), the runner-up
    forbidden. The first must beat every other file, and the runner-up all the rest, under any
    reading: a tie, or a last line that wc does not count, would make two right answers."""
    order = sorted(paths, key=lambda p: (measure(p)[0] if lowest else -measure(p)[0], p))

    def beats(a: str, b: str) -> bool:
        return measure(a)[1] < measure(b)[0] if lowest else measure(a)[0] > measure(b)[1]

    first, second = order[0], order[1]
    if not all(beats(first, b) for b in order[1:]) or not all(beats(second, b) for b in order[2:]):
        raise ValueError(f"no clear first and second among {', '.join(order[:3])}")
    return Answer(f"{first} ({measure(first)[0]} {unit})", [file_pattern(t, first)], [file_pattern(t, second)])


def first_line(text: str) -> str:
    return text.strip().splitlines()[0].strip()


def quoted(text: str, key: str, pattern: str = "") -> Answer:
    """A reply quoting ``text`` must hold its key words (``pattern``, by default ``key`` itself); the
    check that ``key`` is in ``text`` catches a pattern written for another text."""
    if key not in text:
        raise ValueError(f"{key!r} is not in {text!r}")
    return Answer(text, [pattern or key])


# ------------------------------------------------------------------ answers needing more than one line

def _busiest_dir(t: Tree) -> Answer:
    counts = t.files_per_dir()
    order = sorted(counts, key=lambda d: (-counts[d], d))
    top = order[0]
    if counts[top] == counts[order[1]] or not top:
        raise ValueError("the busiest directory must be one named directory")
    return Answer(f"{top} ({counts[top]} files)", [word(top), str(counts[top])])


def _most_functions(t: Tree) -> Answer:
    counts = {p: len(t.functions(p)) for p in t.files("sqlparse", ".py")}
    answer = ranked(t, list(counts), lambda p: (counts[p], counts[p]), "top-level functions")
    top = max(counts, key=counts.__getitem__)
    return Answer(answer.text, answer.expected + [str(counts[top])], answer.forbidden)


def _max_depth(t: Tree) -> Answer:
    ((path, value),) = t.assignments("MAX_GROUPING_DEPTH")
    return Answer(f"{path} = {value}", [file_pattern(t, path), value])


def _unreferenced_sql(t: Tree) -> Answer:
    tests = b"".join(t.data(p) for p in t.files("tests", ".py"))
    return files(t, [p for p in t.files("tests/files", ".sql") if p.rsplit("/", 1)[-1].encode() not in tests])


def _comment_sites(t: Tree, tag: str, under: str = "sqlparse") -> List[Tuple[str, int, str]]:
    return [(p, line, text) for p in t.files(under, ".py") for line, text in t.comments(p) if tag in text]


def _files_with_comment(t: Tree, tag: str) -> Answer:
    return files(t, sorted({p for p, _, _ in _comment_sites(t, tag)}))


def _hack(t: Tree) -> Answer:
    ((path, line, text),) = _comment_sites(t, "HACK", under="")
    return Answer(f"{path}:{line} {text}", [file_pattern(t, path), str(line)])


def _fixme_text(t: Tree) -> Answer:
    ((_, _, text),) = [s for s in _comment_sites(t, "FIXME") if s[0] == "sqlparse/filters/right_margin.py"]
    return quoted(text, "Doesn't work", r"re:does(?:n['’]?t| not) work")


def _exception_classes(t: Tree, under: str = "") -> List[str]:
    """Classes deriving from Exception, directly or through another class of the tree."""
    roots = {"Exception", "BaseException"}
    found = set(roots)
    classes = [(p, c.name) for p in t.files(under, ".py") for c in t.classes(p)]
    while True:
        more = {c for p, c in classes if c not in found and set(t.bases(p, c)) & found}
        if not more:
            return sorted(found - roots)
        found |= more


def _sqlparseerror(t: Tree) -> Answer:
    (name,) = _exception_classes(t, "sqlparse")
    path = t.where_defined(name, "sqlparse")
    return Answer(f"{name} in {path}", [exact(name), file_pattern(t, path)])


def _raises(t: Tree, name: str) -> int:
    """``raise NAME(...)`` and ``raise NAME`` statements in the package."""
    def raised(node: ast.Raise) -> str:
        exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
        return exc.id if isinstance(exc, ast.Name) else ""

    return sum(raised(n) == name for p in t.files("sqlparse", ".py") for n in ast.walk(t.module(p))
               if isinstance(n, ast.Raise) and n.exc is not None)


def _pyproject(t: Tree) -> dict:
    import tomllib  # Python 3.11+: only the generator and its freeze test read pyproject.toml

    return tomllib.loads(t.data("pyproject.toml").decode())


def _version(t: Tree) -> Answer:
    value = dict(t.assignments("__version__", "sqlparse"))["sqlparse/__init__.py"].strip("'\"")
    return Answer(value, [value])


def _console_script(t: Tree) -> Answer:
    ((name, target),) = _pyproject(t)["project"]["scripts"].items()
    # __main__.py only re-exports cli.main: naming either module is right
    return Answer(f"{name} = {target}", [word(name), r"re:__main__|sqlparse\.cli|cli\.py"])


def _caller_names(t: Tree, name: str, under: str = "sqlparse") -> List[str]:
    """Callers by name: a function's own name, a method's class (the name a reply cannot do without)."""
    return sorted({q.split(".")[0] for _, q in t.callers(name, under)})


def _own_calls(t: Tree, path: str, qualname: str) -> Answer:
    """What a function calls among the functions and methods of its own file."""
    local = {q.rsplit(".", 1)[-1] for p, q, _ in t.defs() if p == path}
    return names(sorted(t.calls(path, qualname) & local))


# ------------------------------------------------------------------ the facts

FACTS: List[Fact] = [
    # ---- how many files
    Fact("py-total", "file count", "easy", (
        "How many .py files are there in this project, counting every directory?",
        "count all the python files in this repo (tests, docs, examples, everything)",
        "What's the total number of Python source files across the entire tree?"),
        lambda t: number(len(t.files(suffix=".py")))),
    Fact("py-package", "file count", "easy", (
        "How many .py files does the sqlparse/ directory contain, its subdirectories included?",
        "count the .py files in the sqlparse package, engine/ and filters/ included",
        "What is the number of Python source files under sqlparse/, recursively?"),
        lambda t: number(len(t.files("sqlparse", ".py")))),
    Fact("py-filters", "file count", "easy", (
        "How many Python files are in sqlparse/filters?",
        "number of .py files in the filters subpackage?",
        "Count the modules, __init__.py included, that live in sqlparse/filters."),
        lambda t: number(len(t.in_dir("sqlparse/filters", ".py")))),
    Fact("test-modules", "file count", "easy", (
        "How many test modules (test_*.py files) are in the tests directory?",
        "how many test_*.py files does tests/ have?",
        "What's the count of Python files named like test_something.py under tests/?"),
        lambda t: number(len([p for p in t.files("tests", ".py") if p.rsplit("/", 1)[-1].startswith("test_")]))),
    Fact("sql-fixtures", "file count", "easy", (
        "How many .sql files are in tests/files?",
        "count the SQL fixture files the tests use, the ones in tests/files",
        "What number of files with a .sql extension sit in the tests/files folder?"),
        lambda t: number(len(t.in_dir("tests/files", ".sql")))),
    Fact("md-total", "file count", "easy", (
        "How many Markdown (.md) files are in the project, hidden directories such as .github included?",
        "count every .md file in the tree, dot-folders too",
        "What's the total number of files ending in .md anywhere below this directory, including inside hidden folders?"),
        lambda t: number(len(t.files(suffix=".md")))),
    Fact("bench-scripts", "file count", "easy", (
        "How many bench_*.py scripts are in the benchmarks folder?",
        "how many of the benchmark scripts are named bench_something.py?",
        "Count the Python files in benchmarks/ whose names start with bench_."),
        lambda t: number(len([p for p in t.in_dir("benchmarks", ".py") if p.startswith("benchmarks/bench_")]))),

    # ---- layout
    Fact("subpackages", "layout", "easy", (
        "What subpackages does the sqlparse package have?",
        "which folders under sqlparse/ are python packages themselves (they have an __init__.py)?",
        "Name the sub-packages nested inside sqlparse/."),
        lambda t: names([p.split("/")[1] for p in t.files("sqlparse", "/__init__.py") if p.count("/") == 2])),
    Fact("busiest-dir", "layout", "hard", (
        "Which directory directly contains the most files, and how many? Files in its subdirectories don't count.",
        "what folder has the most files in it (not counting nested folders)? give the count too",
        "Find the directory holding the largest number of files at its own level, and say how many it has."),
        _busiest_dir),
    Fact("top-dirs", "layout", "easy", (
        "What are the top-level directories of the project, leaving out hidden ones?",
        "list the folders at the root of this repo (skip the dot-folders)",
        "Which non-hidden subdirectories sit directly in the project root?"),
        lambda t: names([d for d in t.top_dirs() if not d.startswith(".")])),

    # ---- line counts
    Fact("lines-lexer", "line count", "easy", (
        "How many lines are in sqlparse/lexer.py?",
        "line count of the lexer module?",
        "What is the length, in lines, of sqlparse/lexer.py?"),
        lambda t: number(t.lines("sqlparse/lexer.py"))),
    Fact("lines-sql", "line count", "easy", (
        "How many lines does sqlparse/sql.py have?",
        "how long is sql.py in the sqlparse package, in lines?",
        "Give me the line count of the module sqlparse/sql.py."),
        lambda t: number(t.lines("sqlparse/sql.py"))),
    Fact("lines-readme", "line count", "easy", (
        "How many lines are in the top-level README.md?",
        "how long is the main readme, line-wise?",
        "What's the number of lines in the project's root README file?"),
        lambda t: number(t.lines("README.md"))),
    Fact("lines-changelog", "line count", "easy", (
        "How many lines long is the CHANGELOG file?",
        "line count of CHANGELOG?",
        "What's the size of the changelog, measured in lines?"),
        lambda t: number(t.lines("CHANGELOG"))),
    Fact("lines-filters-total", "line count", "hard", (
        "What is the total number of lines across all .py files in sqlparse/filters?",
        "add up the line counts of every python file in the filters package, what's the sum?",
        "How many lines of Python are there in sqlparse/filters altogether?"),
        lambda t: number(sum(t.lines(p) for p in t.in_dir("sqlparse/filters", ".py")))),
    Fact("lines-grouping", "line count", "easy", (
        "How many lines are in sqlparse/engine/grouping.py?",
        "how long is the grouping module under engine/, in lines?",
        "Line count of sqlparse/engine/grouping.py, the file that does the grouping?"),
        lambda t: number(t.lines("sqlparse/engine/grouping.py"))),

    # ---- longest, shortest, largest
    Fact("longest-py", "extreme", "hard", (
        "Which .py file in the project has the most lines?",
        "what's the longest python file in here?",
        "Find the Python source file with the highest line count, anywhere in the tree."),
        lambda t: ranked(t, t.files(suffix=".py"), t.line_bounds, "lines")),
    Fact("longest-test", "extreme", "hard", (
        "Which test module under tests/ is the longest?",
        "biggest test file by line count?",
        "Among the test_*.py files in tests/, which one has the most lines?"),
        lambda t: ranked(t, [p for p in t.files("tests", ".py") if "/test_" in p], t.line_bounds, "lines")),
    Fact("shortest-package", "extreme", "hard", (
        "What's the shortest .py file in the sqlparse package (subpackages included), by lines?",
        "smallest python module in sqlparse/ in terms of line count?",
        "Which Python file under sqlparse/ has the fewest lines?"),
        lambda t: ranked(t, t.files("sqlparse", ".py"), t.line_bounds, "lines", lowest=True)),
    Fact("longest-filter", "extreme", "hard", (
        "Which module in sqlparse/filters has the most lines?",
        "longest file in the filters package?",
        "In sqlparse/filters, which Python file is the largest by line count?"),
        lambda t: ranked(t, t.in_dir("sqlparse/filters", ".py"), t.line_bounds, "lines")),
    Fact("biggest-sql", "extreme", "hard", (
        "Which .sql file in tests/files is the largest in bytes?",
        "biggest SQL fixture by file size?",
        "Among the SQL files under tests/files, which has the greatest size in bytes?"),
        lambda t: ranked(t, t.in_dir("tests/files", ".sql"), t.size_bounds, "bytes")),
    Fact("longest-md", "extreme", "hard", (
        "Which Markdown file in the project has the most lines?",
        "which markdown file in the repo runs to the most lines?",
        "Out of all the .md files, which one is the longest by line count?"),
        lambda t: ranked(t, t.files(suffix=".md"), t.line_bounds, "lines")),
    Fact("most-functions", "extreme", "hard", (
        "Which .py file in the sqlparse package defines the most top-level functions, and how many?",
        "what module in sqlparse/ has the most module-level defs? give the number",
        "In the sqlparse package, subpackages included, which Python file declares the largest number of "
        "top-level functions, and what's the count?"),
        _most_functions),

    # ---- where things are defined
    Fact("where-lexer", "definition site", "easy", (
        "Where is the Lexer class defined?",
        "which file has class Lexer in it?",
        "In which module does the definition of the Lexer class live?"),
        lambda t: files(t, [t.where_defined("Lexer")])),
    Fact("where-split-unquoted", "definition site", "easy", (
        "Where is split_unquoted_newlines defined?",
        "which file has the def for split_unquoted_newlines?",
        "Locate the definition of the function split_unquoted_newlines: which module is it in?"),
        lambda t: files(t, [t.where_defined("split_unquoted_newlines")])),
    Fact("where-filterstack", "definition site", "easy", (
        "In which file is the FilterStack class defined?",
        "where's FilterStack declared?",
        "Which source file contains the definition of class FilterStack?"),
        lambda t: files(t, [t.where_defined("FilterStack")])),
    Fact("where-validate-options", "definition site", "easy", (
        "Where is the validate_options function defined?",
        "which module defines validate_options?",
        "Find the file where def validate_options appears."),
        lambda t: files(t, [t.where_defined("validate_options")])),
    Fact("where-truncate", "definition site", "easy", (
        "Which file defines the TruncateStringFilter class?",
        "where does TruncateStringFilter live?",
        "Locate the module containing class TruncateStringFilter."),
        lambda t: Answer(t.where_defined("TruncateStringFilter"),
                         [file_pattern(t, t.where_defined("TruncateStringFilter"))],
                         [r"re:(?<![\w/])sqlparse/tokens\.py|(?<!\w)sqlparse\.tokens(?![\w.])"])),
    Fact("where-max-depth", "definition site", "easy", (
        "Where is MAX_GROUPING_DEPTH defined and what is it set to?",
        "what's MAX_GROUPING_DEPTH's value, and which file sets it?",
        "Which module assigns the constant MAX_GROUPING_DEPTH, and to what number?"),
        _max_depth),

    # ---- what a file or a class contains
    Fact("classes-filter-tokens", "file contents", "easy", (
        "What classes are defined in sqlparse/filters/tokens.py?",
        "list the classes in filters/tokens.py",
        "Which class definitions does the module sqlparse/filters/tokens.py contain?"),
        lambda t: names([c.name for c in t.classes("sqlparse/filters/tokens.py")], exact)),
    Fact("classes-sql-count", "file contents", "easy", (
        "How many classes are defined in sqlparse/sql.py?",
        "number of classes in sql.py?",
        "Count the class definitions in the sqlparse/sql.py module."),
        lambda t: number(len(t.classes("sqlparse/sql.py")))),
    Fact("classes-others", "file contents", "easy", (
        "Which classes does sqlparse/filters/others.py define?",
        "what classes are in the 'others' module of the filters package?",
        "Name every class declared in sqlparse/filters/others.py."),
        lambda t: names([c.name for c in t.classes("sqlparse/filters/others.py")], exact)),
    Fact("functions-utils", "file contents", "easy", (
        "What functions are defined in sqlparse/utils.py?",
        "list the functions in the utils module",
        "Which top-level functions does sqlparse/utils.py declare?"),
        lambda t: names([f.name for f in t.functions("sqlparse/utils.py")])),
    Fact("tests-split-count", "file contents", "easy", (
        "How many test functions are defined in tests/test_split.py?",
        "how many def test_ functions does test_split.py have?",
        "Count the functions whose names start with test_ in tests/test_split.py."),
        lambda t: number(len([q for p, q, _ in t.defs("tests") if p == "tests/test_split.py"
                              and q.rsplit(".", 1)[-1].startswith("test_")]))),
    Fact("api-functions", "file contents", "easy", (
        "What functions does sqlparse/__init__.py define?",
        "which functions are declared in sqlparse's __init__ module?",
        "List the top-level functions in sqlparse/__init__.py."),
        lambda t: names([f.name for f in t.functions("sqlparse/__init__.py")])),
    Fact("methods-lexer", "file contents", "hard", (
        "What methods does the Lexer class have?",
        "list Lexer's methods",
        "Which functions are defined inside class Lexer in sqlparse/lexer.py?"),
        lambda t: names([m.name for m in t.methods("sqlparse/lexer.py", "Lexer")])),
    Fact("tokenlist-methods-count", "file contents", "hard", (
        "How many methods does the TokenList class define itself, properties and dunder methods included?",
        "count the defs directly inside class TokenList (inherited ones don't count)",
        "What's the number of functions declared in TokenList's own class body in sqlparse/sql.py?"),
        lambda t: number(len(t.methods("sqlparse/sql.py", "TokenList")))),
    Fact("keyword-dicts", "file contents", "hard", (
        "How many KEYWORDS dictionaries (KEYWORDS, KEYWORDS_COMMON, KEYWORDS_ORACLE and so on) does "
        "sqlparse/keywords.py define?",
        "how many KEYWORDS_* dicts are in keywords.py, counting the plain KEYWORDS one too?",
        "Count the module-level names in sqlparse/keywords.py that start with KEYWORDS."),
        lambda t: number(len([n for n in t.module_names("sqlparse/keywords.py") if n.startswith("KEYWORDS")]))),

    # ---- inheritance
    Fact("base-keywordcase", "inheritance", "easy", (
        "What is the base class of KeywordCaseFilter?",
        "what does KeywordCaseFilter inherit from?",
        "KeywordCaseFilter extends which class?"),
        lambda t: names(t.bases(t.where_defined("KeywordCaseFilter"), "KeywordCaseFilter"), exact)),
    Fact("bases-identifier", "inheritance", "easy", (
        "Which classes does Identifier in sqlparse/sql.py inherit from?",
        "what are the parent classes of sql.Identifier?",
        "List the direct base classes of the Identifier class."),
        lambda t: names(t.bases("sqlparse/sql.py", "Identifier"), exact)),
    Fact("base-outputpython", "inheritance", "easy", (
        "What class does OutputPythonFilter derive from?",
        "OutputPythonFilter's parent class?",
        "Which class is the superclass of OutputPythonFilter?"),
        lambda t: names(t.bases(t.where_defined("OutputPythonFilter"), "OutputPythonFilter"), exact)),
    Fact("tokenlist-subclasses", "inheritance", "hard", (
        "How many classes in sqlparse/sql.py inherit directly from TokenList?",
        "count the direct TokenList subclasses in sql.py",
        "In sqlparse/sql.py, how many class definitions list TokenList among their base classes?"),
        lambda t: number(len(t.subclasses("TokenList", "sqlparse/sql.py")))),
    Fact("mixin-users", "inheritance", "hard", (
        "Which classes use NameAliasMixin as a base?",
        "what inherits from NameAliasMixin?",
        "Find the classes that have NameAliasMixin among their base classes."),
        lambda t: names([c for _, c in t.subclasses("NameAliasMixin")], exact)),

    # ---- imports
    Fact("importers-exceptions", "imports", "hard", (
        "Which modules in the sqlparse package import sqlparse.exceptions?",
        "what files under sqlparse/ pull in the exceptions module?",
        "Inside sqlparse/, which Python files have an import of sqlparse.exceptions?"),
        lambda t: files(t, t.importers("sqlparse.exceptions", "sqlparse"))),
    Fact("importers-threading", "imports", "easy", (
        "Which file imports the threading module?",
        "where is threading imported?",
        "What Python file in this project imports the standard library's threading module?"),
        lambda t: files(t, t.importers("threading"))),
    Fact("importers-lexer-tests", "imports", "hard", (
        "Which test files import sqlparse.lexer?",
        "what tests pull in the lexer module directly?",
        "Find the modules under tests/ that import from sqlparse.lexer."),
        lambda t: files(t, t.importers("sqlparse.lexer", "tests"))),
    Fact("filters-importing-utils", "imports", "hard", (
        "Which modules in sqlparse/filters import sqlparse.utils?",
        "what filter modules import the utils module?",
        "In the filters subpackage, which files import from sqlparse.utils?"),
        lambda t: files(t, t.importers("sqlparse.utils", "sqlparse/filters"))),
    Fact("filters-init-imports", "imports", "easy", (
        "How many modules does sqlparse/filters/__init__.py import from?",
        "filters/__init__.py imports from how many different modules?",
        "Count the distinct modules that sqlparse/filters/__init__.py has import statements for."),
        lambda t: number(len(t.imports("sqlparse/filters/__init__.py")))),

    # ---- calls
    Fact("callers-group-matching", "calls", "hard", (
        "Which functions call _group_matching?",
        "who calls _group_matching?",
        "Find every function that invokes _group_matching, apart from itself."),
        lambda t: names(_caller_names(t, "_group_matching"))),
    Fact("callers-validate-options", "calls", "hard", (
        "Which functions call validate_options?",
        "where is validate_options called from?",
        "What are the callers of the validate_options function?"),
        lambda t: names(_caller_names(t, "validate_options", ""))),
    Fact("cli-main-calls", "calls", "hard", (
        "Which of the functions defined in sqlparse/cli.py does main() call?",
        "what cli.py helpers get called from main?",
        "main in sqlparse/cli.py calls which of the other functions of that file?"),
        lambda t: _own_calls(t, "sqlparse/cli.py", "main")),
    Fact("tokenize-calls", "calls", "hard", (
        "What does the tokenize function in sqlparse/lexer.py call?",
        "which Lexer methods does lexer.tokenize() call?",
        "Which methods are invoked inside the tokenize function of sqlparse/lexer.py?"),
        lambda t: _own_calls(t, "sqlparse/lexer.py", "tokenize")),
    Fact("callers-group-count", "calls", "hard", (
        "How many functions in sqlparse/engine/grouping.py call _group, not counting _group itself?",
        "count the functions in grouping.py that call _group (leave out _group's own recursive call)",
        "In the grouping module, how many other functions invoke the helper _group?"),
        lambda t: number(len(t.callers("_group", "sqlparse/engine/grouping.py")))),
    Fact("callers-split-unquoted", "calls", "hard", (
        "Which code in the sqlparse package calls split_unquoted_newlines?",
        "who uses split_unquoted_newlines inside sqlparse/ (ignore the tests)?",
        "Find the caller of split_unquoted_newlines within the sqlparse package: which class and method?"),
        lambda t: names(_caller_names(t, "split_unquoted_newlines"), exact)),

    # ---- text search
    Fact("grep-max-depth", "text search", "easy", (
        "How many files mention MAX_GROUPING_DEPTH?",
        "count the files that contain the string MAX_GROUPING_DEPTH",
        "In how many files across the project does MAX_GROUPING_DEPTH appear?"),
        lambda t: number(len(t.grep("MAX_GROUPING_DEPTH")))),
    Fact("grep-albrecht", "text search", "easy", (
        "Which files contain the name \"Andi Albrecht\"?",
        "where does Andi Albrecht appear in the repo?",
        "List the files that mention the author Andi Albrecht."),
        lambda t: names([p.rsplit("/", 1)[-1] for p in t.grep("Andi Albrecht")])),
    Fact("grep-readthedocs", "text search", "easy", (
        "How many files mention readthedocs?",
        "count the files containing 'readthedocs'",
        "In how many files does the string readthedocs occur?"),
        lambda t: number(len(t.grep("readthedocs")))),
    Fact("unreferenced-sql", "text search", "hard", (
        "Which .sql files in tests/files are never mentioned by name in any test .py file?",
        "are there SQL fixtures in tests/files that no test refers to? which ones?",
        "Find the files under tests/files whose file names appear in no Python file under tests/."),
        _unreferenced_sql),

    # ---- TODO, FIXME, HACK
    Fact("todo-count", "todo", "easy", (
        "How many TODO comments are there in the Python code of the sqlparse package?",
        "count the TODOs in sqlparse/*.py, subpackages too",
        "What's the number of TODO remarks in comments across the .py files under sqlparse/?"),
        lambda t: number(len(_comment_sites(t, "TODO")))),
    Fact("fixme-files", "todo", "easy", (
        "Which files in the sqlparse package have FIXME comments?",
        "where are the FIXMEs in sqlparse/?",
        "Which source files under sqlparse/ carry FIXME notes?"),
        lambda t: _files_with_comment(t, "FIXME")),
    Fact("hack-where", "todo", "easy", (
        "Where is the HACK comment in the code (file and line)?",
        "there's a HACK: comment somewhere in the python code, which file and line?",
        "Locate the comment marked HACK: give its file and line number."),
        _hack),
    Fact("fixme-right-margin", "todo", "easy", (
        "What does the FIXME comment in sqlparse/filters/right_margin.py say?",
        "what's the FIXME note in right_margin.py?",
        "Quote the FIXME remark found in the right_margin filter module."),
        _fixme_text),

    # ---- version and packaging configuration
    Fact("version", "config", "easy", (
        "What version of sqlparse is this?",
        "which version number does the package declare?",
        "What's the __version__ string set in the sqlparse package?"),
        _version),
    Fact("console-script", "config", "easy", (
        "What console script does the project install, and which function does it run?",
        "what's the command-line entry point in pyproject.toml: the command's name and what it points to?",
        "Under [project.scripts], what command is declared and what target does it map to?"),
        _console_script),
    Fact("build-backend", "config", "easy", (
        "What build backend does the project use?",
        "which build system does pyproject.toml set up?",
        "What does pyproject.toml name as the build-backend?"),
        lambda t: quoted(_pyproject(t)["build-system"]["build-backend"], "hatchling",
                         "re:" + _whole("hatch") + "|" + _whole("hatchling"))),
    Fact("requires-python", "config", "easy", (
        "What minimum Python version does the package require?",
        "what's the oldest python this supports, according to requires-python?",
        "What's the requires-python constraint in pyproject.toml?"),
        lambda t: quoted(_pyproject(t)["project"]["requires-python"], "3.10", "re:" + _whole("3.10"))),
    Fact("hatch-version-path", "config", "easy", (
        "Which file does the build read the package version from?",
        "where does hatch get the version number from (which file)?",
        "In pyproject.toml's [tool.hatch.version] section, what path is given?"),
        lambda t: quoted(_pyproject(t)["tool"]["hatch"]["version"]["path"], "sqlparse/__init__.py",
                         "re:" + _whole("sqlparse/__init__.py"))),
    Fact("coverage-omit", "config", "easy", (
        "Which file is excluded from coverage measurement?",
        "what does the coverage config omit?",
        "In [tool.coverage.run], which path is listed under omit?"),
        lambda t: names([p.rsplit("/", 1)[-1] for p in _pyproject(t)["tool"]["coverage"]["run"]["omit"]])),

    # ---- decorators
    Fact("property-count-sql", "decorators", "easy", (
        "How many @property decorators are in sqlparse/sql.py?",
        "count the properties defined in sql.py",
        "How many methods in sqlparse/sql.py are decorated with @property?"),
        lambda t: number(len(t.decorated("sqlparse/sql.py", "property")))),
    Fact("contextmanagers-utils", "decorators", "easy", (
        "Which functions in sqlparse/utils.py are context managers (decorated with @contextmanager)?",
        "what's decorated with contextmanager in utils.py?",
        "Name the @contextmanager functions of the utils module."),
        lambda t: names(t.decorated("sqlparse/utils.py", "contextmanager"))),
    Fact("recurse-decorated", "decorators", "hard", (
        "How many functions in sqlparse/engine/grouping.py are decorated with @recurse?",
        "count the @recurse(...) decorators in grouping.py",
        "In the grouping module, how many function definitions carry the recurse decorator?"),
        lambda t: number(len(t.decorated("sqlparse/engine/grouping.py", "recurse")))),
    Fact("classmethod-lexer", "decorators", "easy", (
        "Which method of Lexer is a classmethod?",
        "what's the @classmethod in the Lexer class?",
        "Name the Lexer method decorated with @classmethod."),
        lambda t: names([q.split(".")[1] for q in t.decorated("sqlparse/lexer.py", "classmethod")])),
    Fact("staticmethods-others", "decorators", "easy", (
        "How many static methods are defined in sqlparse/filters/others.py?",
        "count the @staticmethod decorators in filters/others.py",
        "How many functions in the others module of the filters package are marked @staticmethod?"),
        lambda t: number(len(t.decorated("sqlparse/filters/others.py", "staticmethod")))),

    # ---- docstrings
    Fact("doc-init", "docstring", "easy", (
        "What is the module docstring of sqlparse/__init__.py?",
        "what does the docstring at the top of sqlparse's __init__.py say?",
        "Quote the docstring of the sqlparse package's __init__ module."),
        lambda t: quoted(first_line(t.docstring("sqlparse/__init__.py")), "Parse SQL statements")),
    Fact("doc-sql", "docstring", "easy", (
        "What does the module docstring of sqlparse/sql.py say?",
        "docstring of sql.py?",
        "Quote the docstring at the top of the sqlparse/sql.py module."),
        lambda t: quoted(first_line(t.docstring("sqlparse/sql.py")), "syntactical elements")),
    Fact("doc-split", "docstring", "easy", (
        "What is the first line of the docstring of the split function in sqlparse/__init__.py?",
        "how does sqlparse.split's docstring begin?",
        "Quote the opening sentence of split()'s docstring in the sqlparse package."),
        lambda t: quoted(first_line(t.docstring("sqlparse/__init__.py", "split")), "single statements")),

    # ---- default values
    Fact("default-strip-semicolon", "default value", "easy", (
        "What's the default value of strip_semicolon in sqlparse.split()?",
        "split()'s strip_semicolon parameter defaults to what?",
        "If you call sqlparse.split without passing strip_semicolon, what value does it take?"),
        lambda t: names([t.default("sqlparse/__init__.py", "split", "strip_semicolon")])),
    Fact("default-right-margin", "default value", "easy", (
        "What is the default width of RightMarginFilter?",
        "RightMarginFilter's width defaults to?",
        "When a RightMarginFilter is created without a width, what width does it use?"),
        lambda t: number(int(t.default(t.where_defined("RightMarginFilter"), "RightMarginFilter.__init__", "width")))),
    Fact("default-reindent-width", "default value", "easy", (
        "What is the default value of the width parameter of ReindentFilter?",
        "ReindentFilter(width=?) by default?",
        "If ReindentFilter is constructed without a width argument, which width does it get?"),
        lambda t: number(int(t.default(t.where_defined("ReindentFilter"), "ReindentFilter.__init__", "width")))),
    Fact("max-grouping-tokens", "default value", "easy", (
        "What is MAX_GROUPING_TOKENS set to?",
        "value of MAX_GROUPING_TOKENS?",
        "What limit does the MAX_GROUPING_TOKENS constant hold?"),
        lambda t: number(int(dict(t.assignments("MAX_GROUPING_TOKENS"))["sqlparse/engine/grouping.py"]))),

    # ---- exceptions
    Fact("package-exception", "exceptions", "easy", (
        "What exception class does the sqlparse package define, and in which file?",
        "sqlparse's own exception: what's it called and where is it defined?",
        "Name the custom exception of the sqlparse package and the module that defines it."),
        _sqlparseerror),
    Fact("raise-count", "exceptions", "hard", (
        "How many raise statements for SQLParseError are there in the sqlparse package?",
        "count the places in sqlparse/ that raise SQLParseError",
        "How many times is SQLParseError raised in the package source (number of raise statements)?"),
        lambda t: number(_raises(t, "SQLParseError"))),
    Fact("exceptions-all", "exceptions", "hard", (
        "Which exception classes are defined anywhere in the project's Python files?",
        "list every custom exception class in the repo, benchmarks and tests included",
        "Find all classes deriving from Exception across the whole tree."),
        lambda t: names(_exception_classes(t), exact)),
]
