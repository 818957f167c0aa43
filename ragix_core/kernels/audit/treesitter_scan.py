"""Definitions, imports and calls of non-Python files, read with tree-sitter grammars.

One table per language says which syntax nodes define, import and call; the walk is the same for all.
The grammars come from ``tree-sitter-language-pack`` 0.x, which ships them compiled in its wheel (its
1.x releases fetch grammars from the network at first use, which a confined, offline audit cannot).
Without the package, ``available()`` is False and the caller says so in its notes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

__all__ = ["LANGUAGES", "available", "scan"]


@dataclass(frozen=True)
class _Table:
    definitions: Dict[str, str]  # node type → kind
    imports: Tuple[str, ...]  # node types whose text (first line) is the import
    calls: Tuple[str, ...]  # node types that are a call; the callee is the "function"/"name" field


_JS = _Table({"function_declaration": "function", "generator_function_declaration": "function",
              "method_definition": "method", "class_declaration": "class", "interface_declaration": "interface"},
             ("import_statement",), ("call_expression", "new_expression"))
LANGUAGES: Dict[str, _Table] = {
    "javascript": _JS, "typescript": _JS, "tsx": _JS,
    "go": _Table({"function_declaration": "function", "method_declaration": "method", "type_spec": "type"},
                 ("import_spec",), ("call_expression",)),
    "java": _Table({"class_declaration": "class", "interface_declaration": "interface", "enum_declaration": "enum",
                    "method_declaration": "method", "constructor_declaration": "method"},
                   ("import_declaration",), ("method_invocation", "object_creation_expression")),
    "rust": _Table({"function_item": "function", "struct_item": "struct", "enum_item": "enum",
                    "trait_item": "trait", "mod_item": "module"},
                   ("use_declaration",), ("call_expression",)),
    "c": _Table({"function_definition": "function", "struct_specifier": "struct"},
                ("preproc_include",), ("call_expression",)),
    "cpp": _Table({"function_definition": "function", "class_specifier": "class", "struct_specifier": "struct",
                   "namespace_definition": "namespace"},
                  ("preproc_include",), ("call_expression",)),
}
_FUNCTION_KINDS = {"function", "method"}
_NAME_NODES = {"identifier", "field_identifier", "property_identifier", "type_identifier", "name",
               "destructor_name", "operator_name"}


def available() -> bool:
    try:
        import tree_sitter_language_pack  # noqa: F401
    except ImportError:
        return False
    return True


def _parser(language: str) -> Any:
    from tree_sitter_language_pack import get_parser
    return get_parser(language)


def _last_name(node: Any) -> Optional[str]:
    """The rightmost plain name inside ``node``: ``b`` for ``a.b``, ``a::b`` or ``*b(int)``."""
    if node is None:
        return None
    if node.type in _NAME_NODES:
        return node.text.decode("utf-8", "replace")
    for field in ("declarator", "name", "property", "field", "type", "function"):
        inner = node.child_by_field_name(field)
        if inner is not None:
            return _last_name(inner)
    for child in reversed(node.children):
        found = _last_name(child)
        if found:
            return found
    return None


def _definition_name(node: Any) -> Optional[str]:
    named = node.child_by_field_name("name")
    if named is not None:
        return named.text.decode("utf-8", "replace")
    # C/C++ functions have no name field: the name sits inside the declarator chain
    return _last_name(node.child_by_field_name("declarator"))


def _callee(node: Any) -> Optional[str]:
    target = node.child_by_field_name("function") or node.child_by_field_name("name") \
        or node.child_by_field_name("constructor") or node.child_by_field_name("type")
    return _last_name(target)


def scan(text: str, language: str) -> Dict[str, List[Dict[str, Any]]]:
    """{"definitions": [...], "imports": [...], "calls": [...]} in the same shape as the Python scan."""
    table = LANGUAGES[language]
    root = _parser(language).parse(text.encode("utf-8")).root_node
    defs: List[Dict[str, Any]] = []
    imports: List[Dict[str, Any]] = []
    calls: List[Dict[str, Any]] = []
    # explicit stack, not recursion: generated sources nest deeper than Python's recursion limit
    stack: List[Tuple[Any, Tuple[str, ...], str]] = [(root, (), "<module>")]
    while stack:
        node, scope, caller = stack.pop()
        line = node.start_point[0] + 1
        kind = table.definitions.get(node.type)
        if kind and (node.type != "struct_specifier" and node.type != "class_specifier"
                     or node.child_by_field_name("body") is not None):  # a use of `struct x` defines nothing
            name = _definition_name(node)
            if name:
                qualname = ".".join(scope + (name,))
                defs.append({"line": line, "kind": kind, "name": name, "qualname": qualname})
                scope = scope + (name,)
                if kind in _FUNCTION_KINDS:
                    caller = qualname
        elif node.type in table.imports:
            imports.append({"line": line, "module": node.text.decode("utf-8", "replace").splitlines()[0][:160],
                            "names": []})
        elif node.type in table.calls:
            name = _callee(node)
            if name:
                calls.append({"caller": caller, "callee": name, "line": line})
        stack.extend((child, scope, caller) for child in reversed(node.children))
    defs.sort(key=lambda d: d["line"])
    calls.sort(key=lambda c: (c["line"], c["callee"]))
    return {"definitions": defs, "imports": imports, "calls": calls}
