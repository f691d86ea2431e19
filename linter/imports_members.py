"""s54 (issue 23): what an attribute of a project class's instance holds, read from the class's own module.

``Http().session.post(url)`` in ``pipeline.py``, where ``http_adapter.py`` declares ``class Http`` with
``session: Session = field(init=False)`` and ``self.session = Session()`` in ``__post_init__``: the call is
``requests.Session.post``, by Python's own semantics (the attribute is the object the class's methods assign it or
the field declares). The class is found as :mod:`.imports_disk` finds a project definition (its module under the
linted file's package root, one re-export followed); its module is parsed with libcst once per process (recorded for
the cache like every followed module) and its top-level classes registered with the resolver as the walk registers
them (bases, methods, the class body's fields), so their attributes are read exactly as ``self.<attr>`` is inside the
class (:func:`.names_members.member`: a declared field, a ``@property``'s return, the one object of a known class
the methods assign it). Only those answers are kept (memoised by path, size and mtime), not the tree.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from . import knowledge as kb
from . import names_members as members
from .client_defaults import family_paths, receiver_default
from .disk_summary import _Class, _From
from .imports_disk import _module, _module_file, _root
from .names import Names, Ref
from .packages import absolute_module

#: real path -> (size, mtime_ns, class -> attribute -> the object it holds, module-level name -> the class of the
#: module it is an instance of); only the answers are kept, never a tree (s43: the followed modules' trees were most
#: of what a long-lived process kept)
_walked: dict[str, tuple[int, int, dict[str, dict[str, Ref]], dict[str, str], dict[str, frozenset[str]]]] = {}


def _held_by_class(path: str, package: str | None) -> dict[str, dict[str, Ref]] | None:
    walked = _walk(path, package)
    return walked[0] if walked is not None else None


def _walk(path: str, package: str | None
          ) -> tuple[dict[str, dict[str, Ref]], dict[str, str], dict[str, frozenset[str]]] | None:
    parsed = _module(path)  # records the read for the cache; None when too large or not parsing
    if parsed is None:
        return None
    memo = _walked.get(path)
    if memo is not None and memo[0] == parsed.size and memo[1] == parsed.mtime_ns:
        return memo[2], memo[3], memo[4]
    held: dict[str, dict[str, Ref]] = {}
    instances: dict[str, str] = {}
    defaulted: dict[str, frozenset[str]] = {}
    try:
        module = cst.parse_module("".join(parsed.lines))
        names = Names(module, package)  # the module's imports and top-level bindings
        for stmt in module.body:  # its classes as the walk registers them: bases, methods, the body's fields
            if isinstance(stmt, cst.ClassDef):
                names.visit_ClassDef(stmt)
                for line in stmt.body.body if isinstance(stmt.body, cst.IndentedBlock) else ():
                    for small in line.body if isinstance(line, cst.SimpleStatementLine) else ():
                        if isinstance(small, cst.AnnAssign):
                            names.leave_AnnAssign(small)
                        elif isinstance(small, cst.Assign):
                            names.leave_Assign(small)
                names.leave_ClassDef(stmt)
        for name, cls in names.classes.items():
            members.assigned(names, cls, "")  # reads every method's ``self.<attr> = ...`` once
            attrs = {*cls.attrs, *(cls.assigned or {}), *cls.defs}
            answers = {attr: members.member(names, cls, attr) for attr in attrs}
            held[name] = {attr: ref for attr, ref in answers.items() if ref is not None and ref[1]}
            # s56: the attributes holding a client the class gave a default timeout (client_defaults.py), asked only
            # of a client of a family whose request paths the tables name
            families = {attr: f for attr, ref in held[name].items()
                        if ref is not None and (f := family_paths(f"{ref[0]}.", kb.CLIENT_REQUEST_PATHS)) is not None}
            if families and isinstance(cls.node, cst.ClassDef):
                defaulted[name] = frozenset(attr for attr, (keyword, paths) in families.items()
                                            if receiver_default(f"self.{attr}", paths, keyword, cls.node, None, module))
        for stmt in module.body:  # s54: `kube = _KubeApi()`, a module-level instance of one of its classes
            for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ():
                if not isinstance(small, (cst.Assign, cst.AnnAssign)):
                    continue
                value = small.value
                func = value.func if isinstance(value, cst.Call) else None
                targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
                for target in targets:
                    if isinstance(target, cst.Name):
                        if isinstance(func, cst.Name) and func.value in names.classes:
                            instances[target.value] = func.value
                        else:
                            instances.pop(target.value, None)  # the last binding wins, as at run time
    except Exception:  # noqa: TFH402  a module libcst cannot parse or read: not followed
        held, instances, defaulted = {}, {}, {}
    _walked[path] = (parsed.size, parsed.mtime_ns, held, instances, defaulted)
    return held, instances, defaulted


def _defining(path: str, qualname: str) -> tuple[str, str | None, str, object] | None:
    """Where the project of the file at ``path`` defines ``qualname`` (its module, or one re-export of it): the
    module's file, its package as Python has it, the name, and the module summary's entry for it (None: the module
    binds it by an assignment); None outside the project or not found."""
    parts = qualname.split(".")
    root = _root(path, parts[0])
    if root is None or len(parts) < 2 or parts[0] != root[0]:
        return None
    for _ in range(2):
        located = _module_file(root, parts[1:-1])
        parsed = _module(located[0]) if located is not None else None
        if located is None or parsed is None or parsed.summary is None:
            return None
        package = ".".join(parts[:-1] if located[1] else parts[:-2]) or None
        found = parsed.summary.top.get(parts[-1])
        if not isinstance(found, _From):
            return located[0], package, parts[-1], found
        target = absolute_module(found.module, found.level, package)
        if target is None or target.split(".")[0] != root[0]:
            return None
        parts = [*target.split("."), found.name]
    return None


def imported_member(path: str, class_qualname: str, attr: str) -> Ref:
    """What ``<instance of class_qualname>.<attr>`` holds, when ``class_qualname`` is a class of the project of the
    file at ``path`` (None: another project's class, not found, or the attribute's object is not known)."""
    where = _defining(path, class_qualname)
    if where is None or not isinstance(where[3], _Class):
        return None
    held = _held_by_class(where[0], where[1])
    return held.get(where[2], {}).get(attr) if held is not None else None


def imported_member_default(path: str, class_qualname: str, attr: str) -> bool:
    """s56 (issue 23): whether ``<instance of class_qualname>.<attr>``, a client of a project class, carries a default
    timeout the class installed on its request path (:mod:`.client_defaults`: ``self.core = CoreV1Api(api_client=
    self._new_api_client())`` with the factory wrapping ``rest_client.request``)."""
    where = _defining(path, class_qualname)
    if where is None or not isinstance(where[3], _Class):
        return False
    walked = _walk(where[0], where[1])
    return walked is not None and attr in walked[2].get(where[2], frozenset())


def held_attributes(path: str, qualname: str, imports: Callable[[str], bool]) -> frozenset[str]:
    """s55 (the screen of :func:`imported_member` and :func:`imported_global_member`, cheap): the attribute names
    under which an instance of a class of the module that defines ``qualname`` (a name of the project of the file at
    ``path``; or ``qualname`` itself, a module of it) may hold an object, when that module imports (at any depth) a
    name ``imports`` accepts (``requests``, ``httpx.AsyncClient``: ``import m`` as ``m``, ``from m import a`` as
    ``m.a``); empty otherwise. :func:`_walk` qualifies what a class holds through its own module's imports, so only
    such a module's classes can hold such an object. Read from the module's ``ast`` summary (memoised), never a
    libcst parse; empty when the name is not the project's, not found, or its module does not parse."""
    where = _defining(path, qualname)
    if where is not None:
        file: str | None = where[0]
    else:
        parts = qualname.split(".")
        root = _root(path, parts[0])
        located = _module_file(root, parts[1:]) if root is not None and len(parts) > 1 and parts[0] == root[0] else None
        file = located[0] if located is not None else None
    parsed = _module(file) if file is not None else None
    if parsed is None or parsed.summary is None:
        return frozenset()
    summary = parsed.summary
    return summary.attrs if any(imports(m if a is None else f"{m}.{a}") for m, a in summary.imported) else frozenset()


def imported_global_member(path: str, qualname: str, attr: str) -> Ref:
    """s54 (issue 23; batch 27's seekr-chain ``from seekr_chain.k8s_api import kube``, ``kube.core_v1``): what
    ``<qualname>.<attr>`` holds when ``qualname`` is a module-level name of the project of the file at ``path``
    that its module binds to an instance of one of its classes (``kube = _KubeApi()``; its last binding), read as
    ``self.<attr>`` is inside the class; None otherwise."""
    where = _defining(path, qualname)
    if where is None or where[3] is not None:
        return None
    walked = _walk(where[0], where[1])
    cls = walked[1].get(where[2]) if walked is not None else None
    return walked[0].get(cls, {}).get(attr) if walked is not None and cls is not None else None


def local_member(names: Names, holder: cst.BaseExpression, attr: str) -> Ref:
    """What ``<Cls>().<attr>`` holds when ``Cls`` is a class of the linted module (the name still the module's
    ``class`` statement, not rebound), read as ``self.<attr>`` is inside it."""
    if not isinstance(holder, cst.Call) or not isinstance(holder.func, cst.Name):
        return None
    name = holder.func.value
    cls = names.classes.get(name)
    if cls is None or names._binding_scope(name) is not names.module_scope or names.lookup(name) is not None:
        return None
    ref = members.member(names, cls, attr)
    return ref if ref is not None and ref[1] else None
