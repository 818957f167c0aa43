"""The `operator` tool's worker: structured math, logic and units, no code execution.

Runs in a child process (so a runaway integral is stopped by the timeout and
the CPU limit). Expressions are parsed with ``ast`` and converted node by node
from an allowlist into sympy objects — sympify/eval are never used, so an
expression cannot call anything but the listed functions. Units go through
pint's own expression parser, which does not evaluate Python.

Protocol: one JSON object on stdin, one JSON object on stdout:
  {"op": "solve", "expr": "x**2 - 4", "var": "x"} -> {"result": "[-2, 2]"}
"""

from __future__ import annotations

import ast
import json
import re
import sys
from typing import Any, Dict

__all__ = ["OPS", "compute", "main"]

OPS = ("evaluate", "simplify", "expand", "factor", "solve", "diff", "integrate", "limit",
       "logic_simplify", "satisfiable", "convert")
_FUNCS = ("sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "exp", "log", "sqrt",
          "Abs", "factorial", "floor", "ceiling", "gcd", "lcm", "binomial", "Max", "Min", "Rational")
_MAX_TEXT = 2000


class OperatorError(ValueError):
    pass


def _to_sympy(text: Any, logic: bool = False) -> Any:
    import sympy

    if not isinstance(text, str) or not text.strip() or len(text) > _MAX_TEXT:
        raise OperatorError(f"expression must be a non-empty string of at most {_MAX_TEXT} characters")
    try:
        tree = ast.parse(text.replace("^", "**") if not logic else text, mode="eval")
    except SyntaxError as exc:
        raise OperatorError(f"cannot parse expression: {exc.msg}") from None
    consts = {"pi": sympy.pi, "E": sympy.E, "I": sympy.I, "oo": sympy.oo, "true": sympy.true, "false": sympy.false}
    binops = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
              ast.Div: lambda a, b: a / b, ast.Mod: lambda a, b: a % b, ast.Pow: None,
              ast.BitAnd: sympy.And, ast.BitOr: sympy.Or, ast.BitXor: sympy.Xor}

    def conv(node: ast.AST) -> Any:
        if isinstance(node, ast.Expression):
            return conv(node.body)
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            if isinstance(node.value, int) and abs(node.value) > 10**300:
                raise OperatorError("number too large")
            return sympy.Integer(node.value) if isinstance(node.value, int) else sympy.Float(node.value)
        if isinstance(node, ast.Name):
            if node.id in consts:
                return consts[node.id]
            if len(node.id) > 30:
                raise OperatorError("symbol name too long")
            return sympy.Symbol(node.id)
        if isinstance(node, ast.BinOp) and type(node.op) in binops:
            left, right = conv(node.left), conv(node.right)
            if isinstance(node.op, ast.Pow):
                if right.is_number and abs(right) > 10000:
                    raise OperatorError("exponent too large")
                return left**right
            return binops[type(node.op)](left, right)
        if isinstance(node, ast.UnaryOp):
            operand = conv(node.operand)
            if isinstance(node.op, ast.USub):
                return -operand
            if isinstance(node.op, ast.UAdd):
                return operand
            if isinstance(node.op, (ast.Invert, ast.Not)):
                return sympy.Not(operand)
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq):
            return sympy.Eq(conv(node.left), conv(node.comparators[0]))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCS and not node.keywords:
            return getattr(sympy, node.func.id)(*[conv(a) for a in node.args])
        raise OperatorError(f"unsupported syntax: {ast.dump(node)[:60]}")

    return conv(tree)


def _symbol(req: Dict[str, Any], key: str = "var") -> Any:
    import sympy

    name = req.get(key, "x")
    if not isinstance(name, str) or not name.isidentifier() or len(name) > 30:
        raise OperatorError(f"'{key}' must be a symbol name")
    return sympy.Symbol(name)


_NUMBER_THEN_UNIT = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([^\d\s].*)$")


def _quantity(ureg: Any, text: str) -> Any:
    """pint's own parser; "100 degF" (an offset unit, which it refuses to multiply) as number + unit."""
    import pint

    try:
        return ureg.Quantity(text)
    except pint.errors.OffsetUnitCalculusError:
        match = _NUMBER_THEN_UNIT.match(text)
        if not match:
            raise
        return ureg.Quantity(float(match.group(1)), match.group(2).strip())


def _quantity_text(q: Any) -> str:
    """Float noise cut ("37.77777777777783 degree_Celsius" -> "37.7777777778 degree_Celsius");
    short magnitudes keep pint's own form ("3000.0 meter")."""
    magnitude = q.magnitude
    if isinstance(magnitude, float) and len(repr(magnitude).lstrip("-").replace(".", "")) > 12:
        return f"{magnitude:.12g} {q.units}"
    return str(q)


def _trim(number: str) -> str:
    """"12.5000000000000" -> "12.5"; exponents and non-numbers unchanged."""
    if re.fullmatch(r"-?\d+\.\d*", number):
        number = number.rstrip("0").rstrip(".") if "." in number else number
    return number


def compute(req: Dict[str, Any]) -> str:
    import sympy

    op = req.get("op")
    if op not in OPS:
        raise OperatorError(f"unknown op {op!r}; allowed: {', '.join(OPS)}")
    if op == "convert":
        import pint

        qty, unit = req.get("quantity"), req.get("to")
        if not isinstance(qty, str) or not isinstance(unit, str) or len(qty) > 200 or len(unit) > 100:
            raise OperatorError("convert needs 'quantity' (e.g. '3 km') and 'to' (e.g. 'mile')")
        ureg = pint.UnitRegistry()
        try:
            return _quantity_text(_quantity(ureg, qty).to(unit))
        except Exception as exc:  # pint raises many types; all are user errors here
            raise OperatorError(f"cannot convert: {exc}") from None
    if op in ("logic_simplify", "satisfiable"):
        expr = _to_sympy(req.get("expr"), logic=True)
        if op == "logic_simplify":
            return str(sympy.simplify_logic(expr))
        model = sympy.satisfiable(expr)
        return str(model if model is False else {str(k): bool(v) for k, v in model.items()})
    expr = _to_sympy(req.get("expr"))
    if op == "evaluate":
        if expr.is_Integer:  # exact: "10063", not "10063.0000000000"
            return str(expr)
        return _trim(str(sympy.N(expr, int(req.get("digits", 15)))))
    if op in ("simplify", "expand", "factor"):
        return str(getattr(sympy, op)(expr))
    var = _symbol(req)
    if op == "solve":
        return str(sympy.solve(expr, var))
    if op == "diff":
        return str(sympy.diff(expr, var, int(req.get("order", 1))))
    if op == "integrate":
        if "lower" in req or "upper" in req:
            return str(sympy.integrate(expr, (var, _to_sympy(str(req.get("lower"))), _to_sympy(str(req.get("upper"))))))
        return str(sympy.integrate(expr, var))
    return str(sympy.limit(expr, var, _to_sympy(str(req.get("point", "0")))))


def main() -> None:
    try:
        req = json.loads(sys.stdin.read())
        if not isinstance(req, dict):
            raise OperatorError("request must be a JSON object")
        out: Dict[str, Any] = {"result": compute(req)}
    except OperatorError as exc:
        out = {"error": str(exc)}
    except Exception as exc:  # sympy internals: report, never a traceback
        out = {"error": f"{type(exc).__name__}: {exc}"}
    sys.stdout.write(json.dumps(out))


if __name__ == "__main__":
    main()
