"""The rule language: YAML rules that derive facts from command outputs (and from other facts).

An *observation rule* matches the command that ran (as ragix ran it: program
names without their directory, arguments after glob expansion, quoted where the
shell would need quotes) and, optionally, each line of its output; every match
derives the claims in ``derive``. A *fact rule* matches a fact already derived
(``from``) and derives more (e.g. ``setting`` from a ``line``). Everything is
checked when the file is loaded: unknown keys, bad regexes, unknown predicates,
wrong arity and variables that nothing binds are errors naming the file and the
rule. See docs/TUTOR.md for the full reference and rules/default.yaml for the
shipped rules.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

import yaml

from ragix_core.reasoning_tutor.claims import (PREDICATES, Claim, ClaimSyntaxError, IllTyped, Token, make_claim,
                                               parse_terms)
from ragix_core.tools.policy import is_wc_total_line
from ragix_core.tools.lexer import split_pipeline
from ragix_core.tools.refusal import Refusal

__all__ = ["Rule", "RuleSet", "RuleError", "Derivation", "Output", "load_rules", "default_rules",
           "normalize_command", "output_status", "STATUSES"]

STATUSES = ("ok", "no_match", "failed", "any")


def output_status(result: Any) -> str:
    """What a rule's ``status`` reads of a tool result: ``no_match`` (a search found nothing), ``ok``
    (exit 0, or an exit 1 that is the command's answer: diff's "the files differ"), else ``failed``."""
    if result.no_match:
        return "no_match"
    return "ok" if result.returncode == 0 or result.answer_exit else "failed"


_WORD = r"""(?:'[^']*'|"[^"]*"|[^\s'"|]+)"""
_MACRO = re.compile(r"<([A-Za-z_]\w*)>")
_FLAGS = r"(?P<_flags>(?: -[A-Za-z]+| '?--[a-z][a-z-]*(?:=[^\s|']+)?'?)*)"  # short clusters and long options
_VAR_REF = re.compile(r"\{([A-Za-z_]\w*)\}")
_REGEX_META = set(".[]*^$\\+?(){}|")
_OBS_KEYS = {"id", "doc", "command", "status", "stream", "line", "unless_line", "count", "complete_output",
             "flags_all", "flags_any", "flags_none", "literal", "derive"}
_FACT_KEYS = {"id", "doc", "from", "match", "derive"}
MAX_DERIVATIONS = 2000  # per observation: a 10,000-line listing must not flood the graph


class RuleError(ValueError):
    """A rule file that is missing, unreadable or invalid; the message names the file, rule and key."""


@dataclass(frozen=True)
class Template:
    predicate: str
    args: Tuple[Token, ...]  # bare = variable, quoted = literal with {var} interpolation

    def variables(self) -> List[str]:
        out = []
        for t in self.args:
            out += [t.value] if t.kind == "bare" else _VAR_REF.findall(t.value)
        return out

    def fill(self, values: Dict[str, str]) -> Claim:
        args = [values[t.value] if t.kind == "bare" else _VAR_REF.sub(lambda m: values[m.group(1)], t.value)
                for t in self.args]
        return make_claim(self.predicate, args)


@dataclass(frozen=True)
class Rule:
    id: str
    derive: Tuple[Template, ...]
    doc: str = ""
    # observation rules
    command: Optional["re.Pattern[str]"] = None
    status: str = "ok"
    stream: str = "stdout"
    line: Optional[str] = None  # may contain {var}: inserted escaped, per observation
    unless_line: Optional[str] = None
    count: Optional[str] = None
    complete_output: bool = False
    flags_all: str = ""
    flags_any: str = ""
    flags_none: str = ""
    literal: Tuple[str, ...] = ()
    # fact rules
    source: Optional[Template] = None
    match: Tuple[Tuple[str, "re.Pattern[str]"], ...] = ()

    @property
    def is_fact_rule(self) -> bool:
        return self.source is not None


@dataclass(frozen=True)
class Derivation:
    rule: str
    claim: Claim


@dataclass
class Output:
    """What an observation rule looks at."""

    command: str  # normalize_command(...) of what ran
    status: str  # ok | no_match | failed
    stdout: str = ""
    stderr: str = ""
    truncated: bool = False


@dataclass
class RuleSet:
    rules: List[Rule] = field(default_factory=list)
    source: str = ""

    @property
    def observation_rules(self) -> List[Rule]:
        return [r for r in self.rules if not r.is_fact_rule]

    @property
    def fact_rules(self) -> List[Rule]:
        return [r for r in self.rules if r.is_fact_rule]

    def from_output(self, out: Output) -> Tuple[List[Derivation], int]:
        """Facts the observation rules derive from one output, and how many derivations were ill-typed
        (an output line that does not fit the predicate: counted, not silently lost)."""
        found: List[Derivation] = []
        dropped = 0
        seen = set()
        for rule in self.observation_rules:
            for values in _observation_matches(rule, out):
                for template in rule.derive:
                    try:
                        claim = template.fill(values)
                    except IllTyped:
                        dropped += 1
                        continue
                    if (rule.id, claim) not in seen and len(found) < MAX_DERIVATIONS:
                        seen.add((rule.id, claim))
                        found.append(Derivation(rule.id, claim))
        return found, dropped

    def from_fact(self, fact: Claim) -> List[Derivation]:
        """Facts the fact rules derive from one fact."""
        out: List[Derivation] = []
        for rule in self.fact_rules:
            values = _bind(rule.source, fact)
            if values is None:
                continue
            for var, regex in rule.match:
                m = regex.fullmatch(values.get(var, ""))
                if not m:
                    values = None
                    break
                values.update({k: v for k, v in m.groupdict().items() if v is not None})
            if values is None:
                continue
            for template in rule.derive:
                try:
                    out.append(Derivation(rule.id, template.fill(values)))
                except IllTyped:
                    continue
        return out


# ------------------------------------------------------------------ matching

def normalize_command(display: str) -> str:
    """The command as rules see it: read by ragix's own confinement lexer (so `2>/dev/null`, which the
    tool box drops, is dropped here too), each stage's program without its directory, words re-quoted
    by ``shlex.join``, stages joined by `` | ``. ``display`` is the command as written with its globs
    expanded (``ToolResult.written``), not the argv that ran, which carries ragix's own additions
    (the option that hides `.ragix` from a recursive find or grep; measured: matched on that argv,
    every find in the first benchmark run derived nothing)."""
    try:
        stages = split_pipeline(display)
    except Refusal:
        return display.strip()
    return " | ".join(shlex.join([str(stage[0]).rsplit("/", 1)[-1]] + [str(w) for w in stage[1:]])
                      for stage in stages if stage)


def _unquote(word: str) -> str:
    if len(word) >= 2 and word[0] == word[-1] and word[0] in "'\"":
        return word[1:-1]
    return word


def _observation_matches(rule: Rule, out: Output) -> Iterable[Dict[str, str]]:
    assert rule.command is not None
    m = rule.command.fullmatch(out.command)
    if not m or (rule.status != "any" and rule.status != out.status):
        return
    if rule.complete_output and out.truncated:
        return
    flags = _flag_letters(m.groupdict().get("_flags") or "")
    if any(f not in flags for f in rule.flags_all) or any(f in flags for f in rule.flags_none):
        return
    if rule.flags_any and not flags & set(rule.flags_any):
        return
    values = {k: _unquote(v) for k, v in m.groupdict().items() if v is not None and k != "_flags"}
    if "F" not in flags and any(set(values.get(name, "")) & _REGEX_META for name in rule.literal):
        return
    if rule.line is None and rule.count is None:
        yield dict(values)
        return
    line_re = re.compile(_insert_values(rule.line or r"(?s).*\S.*", values))
    unless = re.compile(_insert_values(rule.unless_line, values)) if rule.unless_line else None
    wc = out.command.rsplit(" | ", 1)[-1].startswith("wc")
    text = out.stdout if rule.stream == "stdout" else out.stderr
    matches = []
    for line in text.splitlines():
        if not line.strip() or (wc and is_wc_total_line(line)) or (unless and unless.fullmatch(line)):
            continue
        lm = line_re.fullmatch(line)
        if lm:
            matches.append({**values, **{k: v for k, v in lm.groupdict().items() if v is not None}})
    if rule.count is not None:
        yield {**values, rule.count: str(len(matches))}
    else:
        yield from matches


# Long options that mean the same as a short one; any other long option (--include=..., --exclude-dir=...)
# counts as "~": it narrows which files are searched, so rules that derive counts or absence exclude it.
_LONG = {"recursive": "r", "dereference-recursive": "R", "line-number": "n", "count": "c",
         "files-with-matches": "l", "files-without-match": "L", "ignore-case": "i", "invert-match": "v",
         "word-regexp": "w", "line-regexp": "x", "with-filename": "H", "no-filename": "h", "only-matching": "o",
         "fixed-strings": "F", "extended-regexp": "E", "quiet": "q", "null": "Z", "null-data": "z"}


def _flag_letters(text: str) -> set:
    """The option letters in a <FLAGS> match: -rn → {r, n}; --line-number → {n}; --include=*.py → {~}."""
    out = set()
    for word in text.split():
        word = word.strip("'")
        if word.startswith("--"):
            out.add(_LONG.get(word[2:].split("=", 1)[0], "~"))
        else:
            out |= set(word[1:])
    return out


def _insert_values(pattern: str, values: Dict[str, str]) -> str:
    return _VAR_REF.sub(lambda m: re.escape(values.get(m.group(1), "")), pattern)


def _bind(source: Optional[Template], fact: Claim) -> Optional[Dict[str, str]]:
    if source is None or source.predicate != fact.predicate or len(source.args) != len(fact.args):
        return None
    values: Dict[str, str] = {}
    for token, arg in zip(source.args, fact.args):
        if token.kind == "bare":
            if values.setdefault(token.value, arg) != arg:
                return None
        elif token.value != arg:
            return None
    return values


# ------------------------------------------------------------------ loading

def _template(text: Any, where: str) -> Template:
    if not isinstance(text, str):
        raise RuleError(f"{where}: expected a claim template such as line(path, text), got {type(text).__name__}")
    try:
        predicate, tokens = parse_terms(text)
    except ClaimSyntaxError as exc:
        raise RuleError(f"{where}: {exc}") from None
    if predicate not in PREDICATES:
        raise RuleError(f"{where}: unknown predicate {predicate!r}; known: {', '.join(PREDICATES)}")
    if len(tokens) != len(PREDICATES[predicate].args):
        raise RuleError(f"{where}: {predicate} takes {len(PREDICATES[predicate].args)} argument(s), got {len(tokens)}")
    if any(t.kind == "var" for t in tokens):
        raise RuleError(f"{where}: rule templates name variables without '?' (bare words); got {text!r}")
    for t in tokens:
        if t.kind == "bare" and not re.fullmatch(r"[A-Za-z_]\w*", t.value):
            raise RuleError(f"{where}: {t.value!r} is not a variable name; quote literals: \"{t.value}\"")
    return Template(predicate, tuple(tokens))


def _regex(text: Any, where: str, *, command: bool = False) -> "re.Pattern[str]":
    if not isinstance(text, str) or not text:
        raise RuleError(f"{where}: expected a non-empty regular expression")
    if command:
        if text.count("<FLAGS>") > 1:
            raise RuleError(f"{where}: <FLAGS> may appear once")
        text = _MACRO.sub(lambda m: _FLAGS if m.group(1) == "FLAGS" else f"(?P<{m.group(1)}>{_WORD})", text)
    try:
        return re.compile(text)
    except re.error as exc:
        raise RuleError(f"{where}: invalid regular expression: {exc}") from None


def _str_field(raw: Dict[str, Any], key: str, where: str, default: str = "") -> str:
    value = raw.get(key, default)
    if not isinstance(value, str):
        raise RuleError(f"{where}: '{key}' must be a string")
    return value


def _parse_rule(raw: Any, index: int, source: str, seen: Dict[str, int]) -> Rule:
    where = f"{source}: rule #{index + 1}"
    if not isinstance(raw, dict):
        raise RuleError(f"{where}: expected a mapping")
    rid = raw.get("id")
    if not isinstance(rid, str) or not re.fullmatch(r"[A-Za-z_][\w.-]*", rid):
        raise RuleError(f"{where}: 'id' must be an identifier")
    where = f"{source}: rule {rid!r}"
    if rid in seen:
        raise RuleError(f"{where}: duplicate id (also rule #{seen[rid] + 1})")
    seen[rid] = index
    is_fact = "from" in raw
    allowed = _FACT_KEYS if is_fact else _OBS_KEYS
    unknown = sorted(set(raw) - allowed)
    if unknown:
        raise RuleError(f"{where}: unknown key(s) {', '.join(unknown)}; allowed: {', '.join(sorted(allowed))}")
    derive = raw.get("derive")
    if isinstance(derive, str):
        derive = [derive]
    if not isinstance(derive, list) or not derive:
        raise RuleError(f"{where}: 'derive' must list at least one claim template")
    templates = tuple(_template(t, f"{where}: derive[{i}]") for i, t in enumerate(derive))
    doc = _str_field(raw, "doc", where)
    if is_fact:
        src = _template(raw["from"], f"{where}: from")
        bound = set(src.variables())
        match = raw.get("match") or {}
        if not isinstance(match, dict):
            raise RuleError(f"{where}: 'match' must map variable names to regular expressions")
        compiled = []
        for var, text in match.items():
            if var not in bound:
                raise RuleError(f"{where}: match on {var!r}, which 'from' does not bind")
            rx = _regex(text, f"{where}: match.{var}")
            compiled.append((var, rx))
            bound |= set(rx.groupindex)
        rule = Rule(id=rid, derive=templates, doc=doc, source=src, match=tuple(compiled))
    else:
        if "command" not in raw:
            raise RuleError(f"{where}: an observation rule needs 'command' (a fact rule needs 'from')")
        command = _regex(raw["command"], f"{where}: command", command=True)
        status = _str_field(raw, "status", where, "ok")
        if status not in STATUSES:
            raise RuleError(f"{where}: 'status' is {status!r}; allowed: {', '.join(STATUSES)}")
        stream = _str_field(raw, "stream", where, "stdout")
        if stream not in ("stdout", "stderr"):
            raise RuleError(f"{where}: 'stream' must be stdout or stderr")
        bound = set(command.groupindex) - {"_flags"}
        line = raw.get("line")
        if line is not None:
            bound |= set(_regex(_VAR_REF.sub("x", str(line)), f"{where}: line").groupindex)
            _check_refs(str(line), set(command.groupindex), f"{where}: line")
        unless = raw.get("unless_line")
        if unless is not None:
            _regex(_VAR_REF.sub("x", str(unless)), f"{where}: unless_line")
            _check_refs(str(unless), set(command.groupindex), f"{where}: unless_line")
        count = raw.get("count")
        if count is not None:
            if not isinstance(count, str) or not re.fullmatch(r"[A-Za-z_]\w*", count):
                raise RuleError(f"{where}: 'count' must name the variable that receives the line count")
            bound.add(count)
        literal = raw.get("literal") or []
        if not isinstance(literal, list) or any(v not in command.groupindex for v in literal):
            raise RuleError(f"{where}: 'literal' must list variables bound by 'command'")
        complete = raw.get("complete_output", False)
        if not isinstance(complete, bool):
            raise RuleError(f"{where}: 'complete_output' must be true or false")
        rule = Rule(id=rid, derive=templates, doc=doc, command=command, status=status, stream=stream,
                    line=None if line is None else str(line), unless_line=None if unless is None else str(unless),
                    count=count, complete_output=complete, flags_all=_str_field(raw, "flags_all", where),
                    flags_any=_str_field(raw, "flags_any", where), flags_none=_str_field(raw, "flags_none", where), literal=tuple(literal))
    for i, t in enumerate(templates):
        missing = [v for v in t.variables() if v not in bound]
        if missing:
            raise RuleError(f"{where}: derive[{i}] uses {', '.join(missing)}, which nothing in the rule binds "
                            f"(bound: {', '.join(sorted(bound)) or 'nothing'})")
    return rule


def _check_refs(pattern: str, names: set, where: str) -> None:
    for ref in _VAR_REF.findall(pattern):
        if ref not in names:
            raise RuleError(f"{where}: {{{ref}}} is not bound by 'command'")


def parse_rules(text: str, source: str) -> RuleSet:
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" at line {mark.line + 1}" if mark else ""
        raise RuleError(f"{source}: invalid YAML{at}: {getattr(exc, 'problem', None) or exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("rules"), list):
        raise RuleError(f"{source}: expected a mapping with a 'rules' list")
    if data.get("version", 1) != 1:
        raise RuleError(f"{source}: unsupported rules version {data.get('version')!r} (this ragix reads version 1)")
    seen: Dict[str, int] = {}
    return RuleSet([_parse_rule(r, i, source, seen) for i, r in enumerate(data["rules"])], source)


def load_rules(paths: Sequence[Path] = ()) -> RuleSet:
    """The shipped rules, then each file in ``paths`` (their rules added after; ids must stay unique)."""
    rules = default_rules()
    out = RuleSet(list(rules.rules), rules.source)
    ids = {r.id for r in out.rules}
    for path in paths:
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise RuleError(f"{path}: cannot read rules: {exc}") from None
        extra = parse_rules(text, str(path))
        clash = [r.id for r in extra.rules if r.id in ids]
        if clash:
            raise RuleError(f"{path}: rule id(s) {', '.join(clash)} already defined by {out.source}")
        out.rules.extend(extra.rules)
        ids |= {r.id for r in extra.rules}
        out.source += f", {path}"
    return out


_DEFAULT: Optional[RuleSet] = None


def default_rules() -> RuleSet:
    global _DEFAULT
    if _DEFAULT is None:
        text = resources.files("ragix_core.reasoning_tutor").joinpath("rules.yaml").read_text(encoding="utf-8")
        _DEFAULT = parse_rules(text, "ragix_core/reasoning_tutor/rules.yaml")
    return _DEFAULT
