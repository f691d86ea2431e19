"""The base of the TFH5xx rules: :class:`UnionRule`, which reads a ``match``, an ``if``/``elif`` chain or a table into a summary.

It keeps, per function, the names known to hold a ToolError or a Result (see
``model.py``); a rule asks :meth:`UnionRule.match`, :meth:`UnionRule.chain`
or :meth:`UnionRule.table` and reads the plain summary it gets.
"""

from __future__ import annotations

import libcst as cst

from ...linter.api import FileContext, Rule, lexical_children, string_literal, walk_in_scope
from .model import ALL, ChainSummary, Cover, MatchSummary, TableSummary, _body_statements, _irrefutable, code, near_miss


class UnionRule(Rule):
    """Base class of TFH501-TFH504 (not a rule itself: it has no code)."""

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)
        # id(function) (None: the module) -> {name -> "error" | "result"}
        self._known: dict[int | None, dict[str, str]] = {}
        self.tags: tuple[str, ...] = self.knowledge.tool_error_variants

    def _scope(self) -> dict[str, str]:
        function = self.names.function
        return self._known.setdefault(id(function) if function is not None else None, {})

    # ------------------------------------------------------------ what names hold

    def _annotation_kind(self, ann: cst.BaseExpression) -> str | None:
        if isinstance(ann, (cst.SimpleString, cst.ConcatenatedString)):
            text = string_literal(ann, concatenated=True)
            if not text:
                return None
            try:
                ann = cst.parse_expression(text)
            except Exception:
                return None
        kind: str | None = None
        stack: list[cst.CSTNode] = [ann]
        while stack:
            n = stack.pop()
            if isinstance(n, (cst.Name, cst.Attribute)):
                qn = self.names.qualname(n)
                if qn in self.knowledge.result_types:
                    return "result"
                if qn in self.knowledge.tool_error_union or qn in self.knowledge.tool_error_classes:
                    kind = "error"
                if isinstance(n, cst.Attribute):
                    continue
            stack.extend(lexical_children(n))
        return kind

    def _value_kind(self, value: cst.BaseExpression) -> str | None:
        if isinstance(value, cst.Await):
            value = value.expression
        if isinstance(value, cst.Call) and self.names.qualname(value.func) in self.knowledge.tool_error_parsers:
            return "error"
        if isinstance(value, cst.Name):
            return self.known(value)
        return None

    def known(self, subject: cst.BaseExpression) -> str | None:
        """"error" or "result" when the expression is a name known to hold one."""
        if isinstance(subject, cst.Name):
            return self._scope().get(subject.value)
        return self._value_kind(subject) if isinstance(subject, cst.Call) else None

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        scope = self._scope()  # the resolver has entered the function already
        p = node.params
        for param in (*p.posonly_params, *p.params, *p.kwonly_params):
            if param.annotation is not None:
                kind = self._annotation_kind(param.annotation.annotation)
                if kind:
                    scope[param.name.value] = kind

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._known.pop(id(node), None)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if isinstance(node.target, cst.Name):
            kind = self._annotation_kind(node.annotation.annotation)
            if kind:
                self._scope()[node.target.value] = kind

    def visit_Assign(self, node: cst.Assign) -> None:
        kind = self._value_kind(node.value)
        for t in node.targets:
            if isinstance(t.target, cst.Name):
                if kind:
                    self._scope()[t.target.value] = kind
                else:
                    self._scope().pop(t.target.value, None)

    def visit_MatchCase(self, node: cst.MatchCase) -> None:
        for name in self._err_captures(node.pattern):
            self._scope()[name] = "error"

    def _err_captures(self, p: cst.MatchPattern) -> list[str]:
        """Names an ``Err(e)`` / ``Err(error=e)`` pattern binds to the error."""
        out: list[str] = []
        if isinstance(p, cst.MatchAs) and p.pattern is not None:
            return self._err_captures(p.pattern)
        if isinstance(p, cst.MatchOr):
            for e in p.patterns:
                out += self._err_captures(e.pattern)
        if isinstance(p, cst.MatchClass) and self.names.qualname(p.cls) in self.knowledge.err_classes:
            sub = self._err_sub(p)
            while isinstance(sub, cst.MatchAs):
                if sub.name is not None:
                    out.append(sub.name.value)
                sub = sub.pattern
        return out

    def _err_sub(self, p: cst.MatchClass) -> cst.MatchPattern | None:
        if p.patterns:
            return p.patterns[0].value
        for kw in p.kwds:
            if kw.key.value == self.knowledge.err_field:
                return kw.pattern
        return None

    def calls_assert_never(self, body: cst.CSTNode) -> bool:
        for n in walk_in_scope(body):
            if isinstance(n, cst.Call):
                qn = self.names.qualname(n.func)
                if qn in self.knowledge.assert_never:
                    return True
                if isinstance(n.func, cst.Name) and n.func.value == "assert_never" and qn is None:
                    return True  # a local backport
        return False

    # ------------------------------------------------------------ tag expressions

    def tag_subject(self, node: cst.BaseExpression) -> cst.BaseExpression | None:
        """``e`` for ``e.tag``, ``d["_tag"]``, ``d.get("_tag")``, ``type(e).__name__``; else None."""
        if isinstance(node, cst.Attribute):
            if node.attr.value == self.knowledge.tag_attribute:
                return node.value
            if node.attr.value == "__name__":
                inner = node.value
                if isinstance(inner, cst.Call) and isinstance(inner.func, cst.Name) and inner.func.value == "type":
                    if len(inner.args) == 1:
                        return inner.args[0].value
                if isinstance(inner, cst.Attribute) and inner.attr.value == "__class__":
                    return inner.value
            return None
        if isinstance(node, cst.Subscript) and len(node.slice) == 1:
            s = node.slice[0].slice
            if isinstance(s, cst.Index) and string_literal(s.value, concatenated=True) == self.knowledge.wire_tag_key:
                return node.value
            return None
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "get":
            if node.args and string_literal(node.args[0].value, concatenated=True) == self.knowledge.wire_tag_key:
                return node.func.value
        return None

    def _class_subject(self, node: cst.BaseExpression) -> cst.BaseExpression | None:
        """``e`` for ``type(e)`` or ``e.__class__``."""
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "type":
            if len(node.args) == 1 and self.names.lookup("type") is None:
                return node.args[0].value
        if isinstance(node, cst.Attribute) and node.attr.value == "__class__":
            return node.value
        return None

    def variant_of(self, node: cst.BaseExpression) -> str | None:
        """The tag of a variant class expression (``Denied``, ``tool.Denied``, an alias)."""
        qn = self.names.qualname(node)
        return self.knowledge.tool_error_classes.get(qn) if qn is not None else None

    def _strings(self, node: cst.BaseExpression) -> list[tuple[cst.CSTNode, str]] | None:
        s = string_literal(node, concatenated=True)
        if s is not None:
            return [(node, s)]
        if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
            out: list[tuple[cst.CSTNode, str]] = []
            for el in node.elements:
                v = string_literal(el.value, concatenated=True)
                if v is None:
                    return None
                out.append((el.value, v))
            return out
        return None

    def _classes(self, node: cst.BaseExpression) -> list[str] | None:
        elements = [el.value for el in node.elements] if isinstance(node, cst.Tuple) else [node]
        tags = [t for t in (self.variant_of(e) for e in elements) if t is not None]
        return tags or None

    def test(self, expr: cst.BaseExpression) -> tuple[str, Cover] | None:
        """A branch test over a variant: (subject, what it covers), or None.

        ``isinstance(e, V)`` (a tuple of variants too), ``e.tag == "V"``,
        ``d["_tag"] in ("V", "W")``, ``type(e) is V``; ``or`` of tests on one
        subject unites them; ``and`` with anything else names but covers nothing.
        """
        if isinstance(expr, cst.BooleanOperation):
            left, right = self.test(expr.left), self.test(expr.right)
            if isinstance(expr.operator, cst.Or):
                if left and right and left[0] == right[0]:
                    left[1].add(right[1])
                    return left
                return None
            found = left or right
            return (found[0], found[1].partial()) if found else None
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value == "isinstance":
            if len(expr.args) == 2 and self.names.lookup("isinstance") is None:
                tags = self._classes(expr.args[1].value)
                if tags:
                    return code(expr.args[0].value), Cover(set(tags), set(tags))
            return None
        if isinstance(expr, cst.Comparison) and len(expr.comparisons) == 1:
            op = expr.comparisons[0].operator
            comparator = expr.comparisons[0].comparator
            for a, b in ((expr.left, comparator), (comparator, expr.left)):
                subject = self.tag_subject(a)
                if subject is not None and isinstance(op, (cst.Equal, cst.In)):
                    strings = self._strings(b)
                    if strings:
                        real = {s for _, s in strings if s in self.tags}
                        return code(subject), Cover(set(real), set(real), strings=strings)
                subject = self._class_subject(a)
                if subject is not None and isinstance(op, (cst.Is, cst.Equal, cst.In)):
                    tags = self._classes(b)
                    if tags:
                        return code(subject), Cover(set(tags), set(tags))
        return None

    @staticmethod
    def _none_test(expr: cst.BaseExpression) -> str | None:
        """The subject of ``x is None`` / ``not x``: a branch a chain over ``parse(...)`` may start with."""
        if isinstance(expr, cst.Comparison) and len(expr.comparisons) == 1:
            c = expr.comparisons[0]
            if isinstance(c.operator, cst.Is) and isinstance(c.comparator, cst.Name) and c.comparator.value == "None":
                return code(expr.left)
        if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Not):
            return code(expr.expression)
        return None

    # ------------------------------------------------------------ patterns

    def cover(self, p: cst.MatchPattern, tag_values: bool) -> Cover:
        """What a pattern covers; ``tag_values``: literal strings are tags (``match e.tag``)."""
        if isinstance(p, cst.MatchAs):
            return Cover({ALL}) if p.pattern is None else self.cover(p.pattern, tag_values)
        if isinstance(p, cst.MatchOr):
            out = Cover()
            for e in p.patterns:
                out.add(self.cover(e.pattern, tag_values))
            return out
        if isinstance(p, cst.MatchValue):
            s = string_literal(p.value, concatenated=True)
            if tag_values and s is not None:
                real = {s} if s in self.tags else set()
                return Cover(set(real), set(real), strings=[(p.value, s)])
            return Cover()
        if isinstance(p, cst.MatchClass):
            qn = self.names.qualname(p.cls)
            whole = all(_irrefutable(e.value) for e in p.patterns) and all(_irrefutable(k.pattern) for k in p.kwds)
            tag = self.knowledge.tool_error_classes.get(qn) if qn is not None else None
            if tag is not None:
                named = Cover({tag}, {tag})
                return named if whole else named.partial()
            if qn in self.knowledge.ok_classes:
                return Cover(ok=whole, result=True)
            if qn in self.knowledge.err_classes:
                sub = self._err_sub(p)
                inner = Cover({ALL}) if sub is None else self.cover(sub, False)
                others = [k for k in p.kwds if k.key.value != self.knowledge.err_field]
                if others and not all(_irrefutable(k.pattern) for k in others):
                    inner = inner.partial()
                inner.result = True
                return inner
            return Cover()
        if isinstance(p, cst.MatchMapping):
            strings: list[tuple[cst.CSTNode, str]] = []
            rest_whole = True
            for el in p.elements:
                if string_literal(el.key, concatenated=True) == self.knowledge.wire_tag_key:
                    found = self._pattern_strings(el.pattern)
                    if found is None:
                        rest_whole = rest_whole and _irrefutable(el.pattern)
                    else:
                        strings += found
                elif not _irrefutable(el.pattern):
                    rest_whole = False
            real = {s for _, s in strings if s in self.tags}
            out = Cover(set(real), set(real), strings=strings)
            return out if rest_whole else out.partial()
        return Cover()

    @staticmethod
    def _pattern_strings(p: cst.MatchPattern) -> list[tuple[cst.CSTNode, str]] | None:
        if isinstance(p, cst.MatchValue):
            s = string_literal(p.value, concatenated=True)
            return [(p.value, s)] if s is not None else None
        if isinstance(p, cst.MatchOr):
            out: list[tuple[cst.CSTNode, str]] = []
            for e in p.patterns:
                if not isinstance(e.pattern, cst.MatchValue) or string_literal(e.pattern.value, concatenated=True) is None:
                    return None
                out.append((e.pattern.value, string_literal(e.pattern.value, concatenated=True) or ""))
            return out
        return None

    def _delegates(self, case: cst.MatchCase) -> bool:
        """An ``Err(e)`` arm whose body matches or branches on ``e`` again (checked there)."""
        names = set(self._err_captures(case.pattern))
        if not names:
            return False
        for n in walk_in_scope(case.body):
            if isinstance(n, cst.Match) and isinstance(n.subject, cst.Name) and n.subject.value in names:
                return True
            if isinstance(n, cst.If):
                t = self.test(n.test)
                if t is not None and t[0] in names:
                    return True
        return False

    def match(self, node: cst.Match) -> MatchSummary:
        tag_values = self.tag_subject(node.subject) is not None
        known = self.known(node.subject)
        if tag_values and known is None:
            inner = self.tag_subject(node.subject)
            known = self.known(inner) if inner is not None else None
        total = Cover()
        covered: set[str] = set()
        ok = False
        wildcard: cst.MatchCase | None = None
        absorbed: list[str] = []
        covers: list[Cover] = []
        for case in node.cases:
            c = self.cover(case.pattern, tag_values)
            covers.append(c)
            total.add(c)
        result = total.result or known == "result"
        for case, c in zip(node.cases, covers):
            if case.guard is not None:
                continue
            everything = ALL in covered
            if wildcard is None:
                top = _irrefutable(case.pattern)
                err_all = result and ALL in c.covers and not top and not self._delegates(case)
                if top or err_all:
                    left = [] if everything else [t for t in self.tags if t not in covered]
                    if left:
                        wildcard, absorbed = case, left
            covered |= c.covers
            ok = ok or c.ok or (_irrefutable(case.pattern))
        missing: list[str] = []
        if ALL not in covered:
            missing = [t for t in self.tags if t not in covered]
            if result and not total.named and not covered:
                missing = ["Err"]
        if result and not ok:
            missing = ["Ok", *missing]
        recognised = bool(total.named or total.result or known)
        return MatchSummary(
            node,
            recognised,
            result,
            missing,
            wildcard,
            absorbed,
            wildcard is not None and self.calls_assert_never(wildcard.body),
            total.named,
            total.strings,
        )

    # ------------------------------------------------------------ chains and tables

    def chain(self, node: cst.If) -> ChainSummary | None:
        """An ``if``/``elif`` chain whose branches all test one subject's variant (``x is None`` allowed)."""
        branches: list[cst.If] = [node]
        orelse = node.orelse
        while isinstance(orelse, cst.If):
            branches.append(orelse)
            orelse = orelse.orelse
        subject: str | None = None
        total = Cover()
        covered: set[str] = set()
        tests: list[cst.CSTNode] = []
        counted = 0
        for b in branches:
            t = self.test(b.test)
            if t is None:
                none = self._none_test(b.test)
                if none is None or (subject is not None and none != subject):
                    return None
                continue
            if subject is None:
                subject = t[0]
            elif t[0] != subject:
                return None
            counted += 1
            tests.append(b.test)
            total.add(t[1])
            covered |= t[1].covers
        if subject is None:
            return None
        closed = False
        if isinstance(orelse, cst.Else):
            closed = any(isinstance(s, cst.SimpleStatementLine) and any(isinstance(x, cst.Raise) for x in s.body)
                         for s in _body_statements(orelse.body)) or self.calls_assert_never(orelse.body)
        missing = [t for t in self.tags if t not in covered]
        if not (total.named or total.strings):
            return None
        has_else = isinstance(orelse, cst.Else)
        return ChainSummary(node, subject, missing, closed, has_else, counted, total.named, total.strings, tests)

    def table(self, node: cst.Dict) -> TableSummary | None:
        """A dict keyed by variant classes or tag strings (at least two real ones, nothing else)."""
        keys: set[str] = set()
        strings: list[tuple[cst.CSTNode, str]] = []
        for el in node.elements:
            if not isinstance(el, cst.DictElement):
                return None
            tag = self.variant_of(el.key)
            if tag is not None:
                keys.add(tag)
                continue
            s = string_literal(el.key, concatenated=True)
            if s is None or not (s in self.tags or near_miss(s, self.tags)):
                return None
            strings.append((el.key, s))
            if s in self.tags:
                keys.add(s)
        if len(keys) < 2:
            return None
        return TableSummary(node, [t for t in self.tags if t not in keys], strings)
