"""Every child of a libcst node, in source order, read from its fields: libcst's ``children``, without re-creating the node.

libcst's ``CSTNode.children`` runs the node's ``_visit_and_replace_children`` with a collecting visitor, which
re-creates (and validates) the node on every call; the retry family's walks and TFH401's value walk called it for
every node they passed: ~9% of the flake8 plugin's time on the agent corpus (s50). :func:`lexical_children` returns
the same nodes in the same order (whitespace, punctuation and operator nodes included, unlike the engine's field
walk :func:`~.nodes.children`) by reading the fields in the order that method visits them, recorded below per class
for the pinned libcst. A class not in the table (a newer libcst) falls back to libcst's own ``children``.
``tests/test_lexical.py`` checks the table against libcst's source and the result against ``children`` on real code.
"""

from __future__ import annotations

import dataclasses
from importlib import metadata

import libcst as cst

__all__ = ["lexical_children"]

# class name -> the fields ``_visit_and_replace_children`` visits, in its order (generated from libcst 1.9's source by
# ``tests/test_lexical.py: visited_fields``)
_VISITED: dict[str, str] = {
    "Add": "whitespace_before whitespace_after",
    "AddAssign": "whitespace_before whitespace_after",
    "And": "whitespace_before whitespace_after",
    "AnnAssign": "target annotation equal value semicolon",
    "Annotation": "whitespace_before_indicator whitespace_after_indicator annotation",
    "Arg": "whitespace_after_star keyword equal value comma whitespace_after_arg",
    "AsName": "whitespace_before_as name whitespace_after_as",
    "Assert": "whitespace_after_assert test comma msg semicolon",
    "Assign": "targets value semicolon",
    "AssignEqual": "whitespace_before whitespace_after",
    "AssignTarget": "target whitespace_before_equal whitespace_after_equal",
    "Asynchronous": "whitespace_after",
    "Attribute": "lpar value dot attr rpar",
    "AugAssign": "target operator value semicolon",
    "Await": "lpar whitespace_after_await expression rpar",
    "BinaryOperation": "lpar left operator right rpar",
    "BitAnd": "whitespace_before whitespace_after",
    "BitAndAssign": "whitespace_before whitespace_after",
    "BitInvert": "whitespace_after",
    "BitOr": "whitespace_before whitespace_after",
    "BitOrAssign": "whitespace_before whitespace_after",
    "BitXor": "whitespace_before whitespace_after",
    "BitXorAssign": "whitespace_before whitespace_after",
    "BooleanOperation": "lpar left operator right rpar",
    "Break": "semicolon",
    "Call": "lpar func whitespace_after_func whitespace_before_args args rpar",
    "ClassDef": (
        "leading_lines decorators lines_after_decorators whitespace_after_class name whitespace_after_name "
        "type_parameters whitespace_after_type_parameters lpar bases keywords rpar whitespace_before_colon body"
    ),
    "Colon": "whitespace_before whitespace_after",
    "Comma": "whitespace_before whitespace_after",
    "Comment": "",
    "CompFor": (
        "whitespace_before asynchronous whitespace_after_for target whitespace_before_in whitespace_after_in iter "
        "ifs inner_for_in"
    ),
    "CompIf": "whitespace_before whitespace_before_test test",
    "Comparison": "lpar left comparisons rpar",
    "ComparisonTarget": "operator comparator",
    "ConcatenatedString": "lpar left whitespace_between right rpar",
    "Continue": "semicolon",
    "Decorator": "leading_lines whitespace_after_at decorator trailing_whitespace",
    "Del": "target whitespace_after_del semicolon",
    "Dict": "lpar lbrace elements rbrace rpar",
    "DictComp": "lpar lbrace key whitespace_before_colon whitespace_after_colon value for_in rbrace rpar",
    "DictElement": "key whitespace_before_colon whitespace_after_colon value comma",
    "Divide": "whitespace_before whitespace_after",
    "DivideAssign": "whitespace_before whitespace_after",
    "Dot": "whitespace_before whitespace_after",
    "Element": "value comma",
    "Ellipsis": "lpar rpar",
    "Else": "leading_lines whitespace_before_colon body",
    "EmptyLine": "whitespace comment newline",
    "Equal": "whitespace_before whitespace_after",
    "ExceptHandler": "leading_lines whitespace_after_except type name whitespace_before_colon body",
    "ExceptStarHandler": (
        "leading_lines whitespace_after_except whitespace_after_star type name whitespace_before_colon body"
    ),
    "Expr": "value semicolon",
    "Finally": "leading_lines whitespace_before_colon body",
    "Float": "lpar rpar",
    "FloorDivide": "whitespace_before whitespace_after",
    "FloorDivideAssign": "whitespace_before whitespace_after",
    "For": (
        "leading_lines asynchronous whitespace_after_for target whitespace_before_in whitespace_after_in iter "
        "whitespace_before_colon body orelse"
    ),
    "FormattedString": "lpar parts rpar",
    "FormattedStringExpression": (
        "whitespace_before_expression expression equal whitespace_after_expression format_spec"
    ),
    "FormattedStringText": "",
    "From": "whitespace_before_from whitespace_after_from item",
    "FunctionDef": (
        "leading_lines decorators lines_after_decorators asynchronous whitespace_after_def name "
        "whitespace_after_name type_parameters whitespace_after_type_parameters whitespace_before_params params "
        "returns whitespace_before_colon body"
    ),
    "GeneratorExp": "lpar elt for_in rpar",
    "Global": "whitespace_after_global names semicolon",
    "GreaterThan": "whitespace_before whitespace_after",
    "GreaterThanEqual": "whitespace_before whitespace_after",
    "If": "leading_lines whitespace_before_test test whitespace_after_test body orelse",
    "IfExp": (
        "lpar body whitespace_before_if whitespace_after_if test whitespace_before_else whitespace_after_else orelse "
        "rpar"
    ),
    "Imaginary": "lpar rpar",
    "Import": "whitespace_after_import names semicolon",
    "ImportAlias": "name asname comma",
    "ImportFrom": (
        "whitespace_after_from relative module whitespace_before_import whitespace_after_import lpar names rpar "
        "semicolon"
    ),
    "ImportStar": "",
    "In": "whitespace_before whitespace_after",
    "IndentedBlock": "header body footer",
    "Index": "whitespace_after_star value",
    "Integer": "lpar rpar",
    "Is": "whitespace_before whitespace_after",
    "IsNot": "whitespace_before whitespace_between whitespace_after",
    "Lambda": "lpar whitespace_after_lambda params colon body rpar",
    "LazyImport": "whitespace_after_lazy whitespace_after_import names semicolon",
    "LazyImportFrom": (
        "whitespace_after_lazy whitespace_after_from relative module whitespace_before_import "
        "whitespace_after_import lpar names rpar semicolon"
    ),
    "LeftCurlyBrace": "whitespace_after",
    "LeftParen": "whitespace_after",
    "LeftShift": "whitespace_before whitespace_after",
    "LeftShiftAssign": "whitespace_before whitespace_after",
    "LeftSquareBracket": "whitespace_after",
    "LessThan": "whitespace_before whitespace_after",
    "LessThanEqual": "whitespace_before whitespace_after",
    "List": "lpar lbracket elements rbracket rpar",
    "ListComp": "lpar lbracket elt for_in rbracket rpar",
    "Match": (
        "leading_lines whitespace_after_match subject whitespace_before_colon whitespace_after_colon cases footer"
    ),
    "MatchAs": "lpar pattern whitespace_before_as whitespace_after_as name rpar",
    "MatchCase": (
        "leading_lines whitespace_after_case pattern whitespace_before_if whitespace_after_if guard "
        "whitespace_before_colon body"
    ),
    "MatchClass": "lpar cls whitespace_after_cls whitespace_before_patterns patterns kwds whitespace_after_kwds rpar",
    "MatchKeywordElement": "key whitespace_before_equal whitespace_after_equal pattern comma",
    "MatchList": "lpar lbracket patterns rbracket rpar",
    "MatchMapping": "lpar lbrace elements whitespace_before_rest rest trailing_comma rbrace rpar",
    "MatchMappingElement": "key whitespace_before_colon whitespace_after_colon pattern comma",
    "MatchOr": "lpar patterns rpar",
    "MatchOrElement": "pattern separator",
    "MatchSequenceElement": "value comma",
    "MatchSingleton": "value",
    "MatchStar": "whitespace_before_name name comma",
    "MatchTuple": "lpar patterns rpar",
    "MatchValue": "value",
    "MatrixMultiply": "whitespace_before whitespace_after",
    "MatrixMultiplyAssign": "whitespace_before whitespace_after",
    "Minus": "whitespace_after",
    "Module": "header body footer",
    "Modulo": "whitespace_before whitespace_after",
    "ModuloAssign": "whitespace_before whitespace_after",
    "Multiply": "whitespace_before whitespace_after",
    "MultiplyAssign": "whitespace_before whitespace_after",
    "Name": "lpar rpar",
    "NameItem": "name comma",
    "NamedExpr": "lpar target whitespace_before_walrus whitespace_after_walrus value rpar",
    "Newline": "",
    "Nonlocal": "whitespace_after_nonlocal names semicolon",
    "Not": "whitespace_after",
    "NotEqual": "whitespace_before whitespace_after",
    "NotIn": "whitespace_before whitespace_between whitespace_after",
    "Or": "whitespace_before whitespace_after",
    "Param": "whitespace_after_star name annotation equal default comma whitespace_after_param",
    "ParamSlash": "comma whitespace_after",
    "ParamSpec": "name whitespace_after_star",
    "ParamStar": "comma",
    "Parameters": "posonly_params posonly_ind params star_arg kwonly_params star_kwarg",
    "ParenthesizedWhitespace": "first_line empty_lines last_line",
    "Pass": "semicolon",
    "Plus": "whitespace_after",
    "Power": "whitespace_before whitespace_after",
    "PowerAssign": "whitespace_before whitespace_after",
    "Raise": "whitespace_after_raise exc cause semicolon",
    "Return": "whitespace_after_return value semicolon",
    "RightCurlyBrace": "whitespace_before",
    "RightParen": "whitespace_before",
    "RightShift": "whitespace_before whitespace_after",
    "RightShiftAssign": "whitespace_before whitespace_after",
    "RightSquareBracket": "whitespace_before",
    "Semicolon": "whitespace_before whitespace_after",
    "Set": "lpar lbrace elements rbrace rpar",
    "SetComp": "lpar lbrace elt for_in rbrace rpar",
    "SimpleStatementLine": "leading_lines body trailing_whitespace",
    "SimpleStatementSuite": "leading_whitespace body trailing_whitespace",
    "SimpleString": "lpar rpar",
    "SimpleWhitespace": "",
    "Slice": "lower first_colon upper second_colon step",
    "StarredDictComp": "lpar lbrace whitespace_before_value value for_in rbrace rpar",
    "StarredDictElement": "whitespace_before_value value comma",
    "StarredElement": "lpar whitespace_before_value value rpar comma",
    "Subscript": "lpar value whitespace_after_value lbracket slice rbracket rpar",
    "SubscriptElement": "slice comma",
    "Subtract": "whitespace_before whitespace_after",
    "SubtractAssign": "whitespace_before whitespace_after",
    "TemplatedString": "lpar parts rpar",
    "TemplatedStringExpression": (
        "whitespace_before_expression expression equal whitespace_after_expression format_spec"
    ),
    "TemplatedStringText": "",
    "TrailingWhitespace": "whitespace comment newline",
    "Try": "leading_lines whitespace_before_colon body handlers orelse finalbody",
    "TryStar": "leading_lines whitespace_before_colon body handlers orelse finalbody",
    "Tuple": "lpar elements rpar",
    "TypeAlias": (
        "whitespace_after_type name whitespace_after_name type_parameters whitespace_after_type_parameters "
        "whitespace_after_equals value semicolon"
    ),
    "TypeParam": "param equal whitespace_after_star default comma",
    "TypeParameters": "lbracket params rbracket",
    "TypeVar": "name colon bound",
    "TypeVarTuple": "name whitespace_after_star",
    "UnaryOperation": "lpar operator expression rpar",
    "While": "leading_lines whitespace_after_while test whitespace_before_colon body orelse",
    "With": "leading_lines asynchronous whitespace_after_with lpar items rpar whitespace_before_colon body",
    "WithItem": "item asname comma",
    "Yield": "lpar whitespace_after_yield value rpar",
}

# the libcst release the table was read from; another release falls back to libcst's ``children`` for every node
# (a release may add a field or visit in another order: correct first, fast where the table is known to hold)
TABLE_LIBCST = (1, 9)


def _installed_libcst() -> tuple[int, ...]:
    try:
        release = metadata.version("libcst")
    except metadata.PackageNotFoundError:  # pragma: no cover - libcst imported above, so it is installed
        return ()
    return tuple(int(part) for part in release.split(".")[:2] if part.isdigit())


_ORDER: dict[type, tuple[str, ...]] = {}
if _installed_libcst() == TABLE_LIBCST:
    for _name, _fields in _VISITED.items():
        _cls = getattr(cst, _name, None)
        if isinstance(_cls, type) and dataclasses.is_dataclass(_cls):
            _names = tuple(_fields.split())
            if set(_names) <= {f.name for f in dataclasses.fields(_cls)}:
                _ORDER[_cls] = _names

# whether a field's value type is a node, asked once per type (libcst's classes are ABCs: ``isinstance`` is slow)
_IS_NODE: dict[type, bool] = {}


def _node_type(t: type) -> bool:
    known = _IS_NODE.get(t)
    if known is None:
        known = _IS_NODE[t] = issubclass(t, cst.CSTNode)
    return known


def lexical_children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """``node.children`` (libcst's: every child node, in source order), read from the fields."""
    fields = _ORDER.get(type(node))
    if fields is None:
        return list(node.children)
    out: list[cst.CSTNode] = []
    for field in fields:
        value = getattr(node, field)
        t = type(value)
        if t is tuple or t is list:
            out.extend([child for child in value if _node_type(type(child))])
        elif _node_type(t):
            out.append(value)
    return out
