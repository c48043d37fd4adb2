"""Guard expressions (SPEC §3): parse to an AST, print canonically, evaluate against a context.

Pure: no I/O, nothing imported from other Alphred packages but ``alphred.errors``.
"""

from alphred.guards.ast import (
    COMPARE_OPS,
    KEYWORDS,
    And,
    Compare,
    CompareOp,
    Expr,
    ListExpr,
    Literal,
    Not,
    Or,
    Path,
    Scalar,
    Value,
    format_guard,
)
from alphred.guards.evaluate import (
    compared_strings,
    evaluate_guard,
    evaluate_value,
    guard_nodes,
    guard_paths,
    is_truthy,
    resolve_path,
    values_equal,
)
from alphred.guards.parse import parse_guard

__all__ = [
    "COMPARE_OPS",
    "KEYWORDS",
    "And",
    "Compare",
    "CompareOp",
    "Expr",
    "ListExpr",
    "Literal",
    "Not",
    "Or",
    "Path",
    "Scalar",
    "Value",
    "compared_strings",
    "evaluate_guard",
    "evaluate_value",
    "format_guard",
    "guard_nodes",
    "guard_paths",
    "is_truthy",
    "parse_guard",
    "resolve_path",
    "values_equal",
]
