"""The timeout family's model of a process call and of the handlers around a call, shared by TFH201
and TFH202: the literal words of a command (``["git", "rev-parse", x]`` -> git, rev-parse), the
commands of a ``shell=True`` line, and the exceptions a ``try``/``contextlib.suppress`` around a call
catches (a timeout fix must not raise past them)."""

from __future__ import annotations

import re

import libcst as cst

from ...linter.api import Knowledge, Names, dotted, last_name

_DEFAULTS = Knowledge.build()
EDITOR_WORDS = ("editor", "pager")  # a name holding the person's editor or pager command (`resolve_editor_command()`)

# s53: the process calls the family reads, one table each (shapes, evidence, TFH201's runner parameters, TFH202)
#: a call that runs a command to its end and takes ``timeout``
PROCESS_RUNS = frozenset({"subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output"})
#: a wait on a started ``subprocess.Popen``
POPEN_WAITS = frozenset({"subprocess.Popen.communicate", "subprocess.Popen.wait"})
#: and on a started process of either library
PROCESS_WAITS = POPEN_WAITS | frozenset({"asyncio.subprocess.Process.communicate", "asyncio.subprocess.Process.wait"})
#: a call that starts a process the function may wait on later
PROCESS_STARTS = frozenset({"subprocess.Popen", "asyncio.create_subprocess_exec", "asyncio.create_subprocess_shell"})


def _env_name(node: cst.BaseExpression) -> str | None:
    """``os.environ.get("EDITOR", ...)``, ``os.getenv("VISUAL")``, ``os.environ["PAGER"]`` -> the variable."""
    if isinstance(node, cst.Call) and node.args:
        f = node.func
        text = last_name(f) if isinstance(f, cst.Attribute) else None
        if text in ("get", "getenv"):
            v = node.args[0].value
            if isinstance(v, cst.SimpleString):
                return str(v.evaluated_value)
    if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Attribute) and node.value.attr.value == "environ":
        el = node.slice[0].slice if node.slice else None
        if isinstance(el, cst.Index) and isinstance(el.value, cst.SimpleString):
            return str(el.value.evaluated_value)
    return None


def _word(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    if isinstance(node, cst.FormattedString) and node.parts and isinstance(node.parts[0], cst.FormattedStringText):
        # one argv word with placeholders (``f"pkill -f -- '{pattern}' || true"`` after ``sh -c``)
        text = "".join(p.value if isinstance(p, cst.FormattedStringText) else "{}" for p in node.parts)
        return text if text.split() and "{}" not in text.split()[0] else None
    env = _env_name(node)
    if env is not None:
        return f"${env}"
    if isinstance(node, cst.BooleanOperation):  # os.environ.get("EDITOR") or "vi"
        return _word(node.left)
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "sys" and node.attr.value == "executable":
        return "sys.executable"
    if isinstance(node, cst.Call):
        f = node.func
        if isinstance(f, cst.Attribute) and f.attr.value == "split":  # editor.split(), shlex.split(editor)
            return _word(node.args[0].value if node.args and last_name(f.value) == "shlex" else f.value)
        name = last_name(f) if isinstance(f, (cst.Name, cst.Attribute)) else None  # resolve_editor_command()
        return "$EDITOR" if name is not None and "editor" in name.lower() else None
    name = last_name(node) if isinstance(node, (cst.Name, cst.Attribute)) else None
    if name is not None and any(part in name.lower() for part in EDITOR_WORDS):
        return "$EDITOR"
    return None


_DIR_FLAGS = frozenset({"-C"})  # a flag whose value is a directory (``git -C dir``, ``make -C dir``): not what runs
_SHELL_BREAKS = re.compile(r"&&|\|\||[;|&\n]")  # a word that is only a separator


def command_words(node: cst.BaseExpression) -> tuple[list[str], bool]:
    """The literal leading words of a process's command (``["git", "rev-parse", x]`` -> git,
    rev-parse), and whether every word is literal (the whole command is known)."""
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        text = node.evaluated_value
        return (text.split(), True) if isinstance(text, str) else ([], False)
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):  # "open " + path, ["git"] + args
        left, _ = command_words(node.left)
        if isinstance(node.left, cst.SimpleString) and not str(node.left.evaluated_value).endswith(" "):
            left = left[:-1]  # "git clo" + "ne": the last word is not whole
        return left, False
    if isinstance(node, cst.FormattedString):
        if not node.parts or not isinstance(node.parts[0], cst.FormattedStringText):
            return [], False
        text = node.parts[0].value
        whole = len(node.parts) == 1
        return text.split()[: None if whole or text.endswith(" ") else -1], whole
    words: list[str] = []
    if isinstance(node, (cst.List, cst.Tuple)):
        whole = True
        for el in node.elements:
            w = _word(el.value)
            if isinstance(el, cst.StarredElement):  # [*editor.split(), path]: the person's editor leads
                return (words + [w] if not words and w == "$EDITOR" else words), False
            if w is None and words and words[-1] in _DIR_FLAGS:  # git -C f"{root}/{name}" add -A: the directory
                w, whole = "{}", False
            if w is None:
                return words, False
            words.append(w)
        return words, whole
    w = _word(node)
    return ([w], False) if w is not None else ([], False)


def argv_words(node: cst.BaseExpression) -> list[str]:
    """The literal leading words of a process's command (``["git", "rev-parse", x]`` -> git, rev-parse)."""
    return command_words(node)[0]


def shell_segments(words: list[str]) -> list[list[str]]:
    """A shell line's commands (``cd x && npm install`` -> [cd, x], [npm, install])."""
    return _DEFAULTS.shell_commands(" ".join(words))


def _shell(node: cst.Call) -> bool:
    kw = next((a for a in node.args if a.keyword is not None and a.keyword.value == "shell"), None)
    return kw is not None and isinstance(kw.value, cst.Name) and kw.value.value == "True"


_STREAM_KEYWORDS = ("capture_output", "stdout", "stderr", "stdin", "input")


def attached(node: cst.Call) -> bool:
    """Whether a process is started on the terminal of the person running the program (s46): nothing captured or
    redirected (no ``capture_output``/``stdout``/``stderr``/``stdin``/``input`` other than ``None``/``False``), so its
    prompts, its device code and its output reach them and they answer or stop it. ``**kwargs`` may redirect: no."""
    for a in node.args:
        if a.star == "**":
            return False
        if a.keyword is not None and a.keyword.value in _STREAM_KEYWORDS and not (
                isinstance(a.value, cst.Name) and a.value.value in ("None", "False")):
            return False
    return True


def session_command(knowledge: Knowledge, node: cst.Call, cmd: cst.BaseExpression) -> str | None:
    """s54 (issue 23): why a process started on the person's terminal (:func:`attached`) is their interactive session
    (``knowledge.interactive_session``: `kubectl exec -it POD -- bash`, `docker run -it IMAGE`, `ssh -t host`, `ssh host`
    with no command), or None. A list's words one by one (a word the code does not spell is one unknown word; a ``*rest``
    ends what is known); a command string (``shell=True`` or not) by its template, each of its commands (a placeholder
    there may hold several words: `f"ssh {target}"` may carry a remote command, so only its flags tell)."""
    if not attached(node):
        return None
    if isinstance(cmd, (cst.List, cst.Tuple)):
        words: list[str | None] = []
        for el in cmd.elements:
            if isinstance(el, cst.StarredElement):
                return knowledge.interactive_session(words, False)
            value = el.value.evaluated_value if isinstance(el.value, cst.SimpleString) else None
            words.append(value if isinstance(value, str) else None)
        return knowledge.interactive_session(words, True)
    if isinstance(cmd, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString, cst.BinaryOperation)):
        for seg in _DEFAULTS.shell_commands(_template(cmd)):
            why = knowledge.interactive_session([None if "{}" in w else w for w in seg], not any("{}" in w for w in seg))
            if why is not None:
                return why
    return None


def later_flags(cmd: cst.BaseExpression | None) -> list[str]:
    """The literal flags of a command list after its literal leading words (``["docker", "login", "-u", user,
    "--password-stdin"]`` -> ``--password-stdin``): what makes a sign-in non-interactive is read past a name."""
    if not isinstance(cmd, (cst.List, cst.Tuple)):
        return []
    lead = len(command_words(cmd)[0])
    return [str(e.value.evaluated_value) for e in cmd.elements[lead:] if isinstance(e.value, cst.SimpleString)
            and not isinstance(e, cst.StarredElement) and str(e.value.evaluated_value).startswith("-")]


def segments(node: cst.Call, words: list[str], whole: bool) -> list[list[str]]:
    """The commands a process call runs: one, or each of a ``shell=True`` line's; a command whose
    text goes on past its literal words after a separator (``"cd x && " + line``) ends in an unknown one."""
    if not _shell(node):
        return [words]
    segments = shell_segments(words)
    if not whole and (not segments or (words and _SHELL_BREAKS.fullmatch(words[-1]))):
        segments.append([])
    return segments or [[]]


def caught_names(names: Names, node: cst.Try) -> list[str] | None:
    """The exceptions a ``try``'s handlers catch (qualified where the module's names say; ``[]``: a
    bare ``except``, everything), or None when it has no handler."""
    if not node.handlers:
        return None
    caught: list[str] = []
    for h in node.handlers:
        if h.type is None:
            return []
        types = [e.value for e in h.type.elements] if isinstance(h.type, cst.Tuple) else [h.type]
        caught.extend(names.qualname(t) or dotted(t) or "?" for t in types)
    return caught


def suppressed_names(names: Names, node: cst.With) -> list[str] | None:
    """The exceptions a ``with contextlib.suppress(...):`` block swallows, or None for another ``with``."""
    out: list[str] | None = None
    for item in node.items:
        expr = item.item
        if isinstance(expr, cst.Call) and names.qualname(expr.func) == "contextlib.suppress":
            out = (out or []) + [names.qualname(a.value) or dotted(a.value) or "?" for a in expr.args]
    return out


def unguessed_program(
    segs: list[list[str]], knowledge: Knowledge, by_kind: tuple[tuple[str, float], ...]
) -> str | None:
    """The first program of a process call's commands whose run time the tables do not know (a timeout fix
    guesses no default there: ``knowledge.process_length_unknown``), or None; None too when the configuration
    gives processes their own default (``default-timeout-seconds = {process = N}``, ``by_kind``)."""
    if any(kind == "process" for kind, _ in by_kind):
        return None
    return next((p for seg in segs if (p := knowledge.process_length_unknown(seg)) is not None), None)


def _template(node: cst.BaseExpression) -> str:
    """A command string's text with ``{}`` for each part the code does not spell (``f"cd {d} && {cmd}"`` -> ``cd {}
    && {}``; ``"ls " + path`` -> ``ls {}``)."""
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        text = node.evaluated_value
        return text if isinstance(text, str) else "{}"
    if isinstance(node, cst.FormattedString):
        return "".join(p.value if isinstance(p, cst.FormattedStringText) else "{}" for p in node.parts)
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
        return _template(node.left) + _template(node.right)
    return "{}"


def local_command(knowledge: Knowledge, node: cst.Call, cmd: cst.BaseExpression, words: list[str], whole: bool,
                  confirmed: bool = False) -> bool:
    """Whether a process has no timeout to give: each command it runs waits for a person or finishes at once
    (``knowledge.interactive_process``), or is a literal local program that ends by itself (``knowledge.local_program``,
    TFH201's default). A ``shell=True`` line is read whole, its unspelled parts as ``{}`` (``f"cd {d} && {cmd}"``:
    the second command is not the code's)."""
    person = attached(node)  # s46: started on the person's terminal, a sign-in talks to them

    def silent(seg: list[str], seg_whole: bool) -> bool:
        return (knowledge.interactive_process(seg, confirmed=confirmed) is not None
                or knowledge.local_program(seg, seg_whole) is not None
                or (person and knowledge.interactive_sign_in(seg + later_flags(cmd))))

    if _shell(node) and not isinstance(cmd, (cst.List, cst.Tuple)):
        segs = _DEFAULTS.shell_commands(_template(cmd))
        return bool(segs) and all(silent(seg, "{}" not in " ".join(seg)) for seg in segs)
    return all(silent(seg, whole) for seg in segments(node, words, whole))


def exec_argv(call: cst.Call) -> cst.List:
    """``asyncio.create_subprocess_exec(program, *args, ...)``'s command as the list ``run`` would be handed: its
    positionals, a ``*args`` kept starred (``**kwargs`` and keywords left out)."""
    return cst.List([cst.StarredElement(a.value) if a.star else cst.Element(a.value)
                     for a in call.args if a.keyword is None and a.star != "**"])
