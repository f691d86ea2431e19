"""s52 (issue 24, the lead's decisions "the model's own input" and "the package's own refusal"): a refusal class of the
project stays a refusal when a construction of it hands on the text of a caught exception that is itself about the
caller's input: another refusal of the project (``except ConfigError as e: raise UserInputError(str(e))``, batch 24's
wb-wordpress) or the error of a ``try`` that only parses the function's parameter or binds arguments to a signature
(``inspect.signature(fn).bind(**arguments)``, batch 24's ankaloop). A caught failure of anything else handed on keeps
the class reported, as before (``linter/project_refusals.py``).

And (issue 24, "typed error events are false") a helper that adds a kind to the container it returns beside the text
(``out.update({"code": "INVALID_INPUT"})``, batch 24's janction) returns a typed error: its callers are silent."""

from __future__ import annotations

import textwrap
from pathlib import Path

from marked_support import marked as _marked, reported as _reported

CONFIG = """\
class ConfigError(RuntimeError):
    pass


def site_info(cfg):
    if not cfg.get("url"):
        raise ConfigError("the site address is missing")
    return cfg
"""

ERRORS = """\
import inspect

from .config import ConfigError, site_info


class UserInputError(RuntimeError):
    pass


def site(cfg):
    try:
        return site_info(cfg)
    except ConfigError as e:
        raise UserInputError(str(e))


def bind(name, func, arguments):
    signature = inspect.signature(func)
    try:
        signature.bind(**arguments)
    except TypeError as exc:
        raise UserInputError(f"tool {name}: the arguments do not match its signature: {exc}") from exc
"""

TOOLS = """\
from mcp.server.fastmcp import FastMCP

from .errors import UserInputError, bind, site

mcp = FastMCP("site")


@mcp.tool()
def publish(cfg: dict, post: str) -> str:
    try:
        bind("publish", site, {"cfg": cfg})
        return client.publish(site(cfg), post)
    except UserInputError as e:
        return f"input problem: {e}"  # user-input
    except Exception as e:
        return f"failed: {e}"  # reported
"""


def _project(tmp_path: Path, config: str = CONFIG, errors: str = ERRORS) -> Path:
    pkg = tmp_path / "sitemcp"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "config.py").write_text(textwrap.dedent(config))
    (pkg / "errors.py").write_text(textwrap.dedent(errors))
    (pkg / "tools.py").write_text(TOOLS)
    return pkg / "tools.py"


def test_a_refusal_carrying_another_refusal_or_an_argument_binding_error_is_a_refusal(tmp_path: Path) -> None:
    # UserInputError hands on ConfigError's text (every ConfigError a written sentence) and a signature's TypeError
    # about the arguments: the package's refusals of its input; the catch-all beside it stays reported
    path = _project(tmp_path)
    assert _reported(path) == _marked(path, "reported")


def test_the_carried_refusal_must_itself_be_a_refusal(tmp_path: Path) -> None:
    # ConfigError also built from a program's output: its text may be anyone's, so UserInputError's is too
    config = CONFIG + """\


def from_tool(proc):
    raise ConfigError(proc.stderr)
"""
    path = _project(tmp_path, config=config)
    assert _reported(path) == _marked(path, "reported", "user-input")


def test_a_binding_try_that_also_runs_the_function_is_no_input_error(tmp_path: Path) -> None:
    # `func(**arguments)` in the `try`: the TypeError may come from inside the function, another failure
    errors = ERRORS.replace("signature.bind(**arguments)", "signature.bind(**arguments)\n        func(**arguments)")
    path = _project(tmp_path, errors=errors)
    assert _reported(path) == _marked(path, "reported", "user-input")


def test_a_caught_library_failure_handed_on_stays_reported(tmp_path: Path) -> None:
    # a handler of a library's class (`OSError`, by name not the project's) hands on another failure's text
    errors = ERRORS + """\


def read(path):
    try:
        return open(path).read()
    except OSError as e:
        raise UserInputError(str(e))
"""
    path = _project(tmp_path, errors=errors)
    assert _reported(path) == _marked(path, "reported", "user-input")


TYPED = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("render")


class ClientError(Exception):
    def agent_fields(self):
        return {"code": self.args[0]}


def _fail(exc: Exception) -> dict:
    out = {"ok": False, "error": str(exc)}
    if isinstance(exc, ClientError):
        out.update(exc.agent_fields())
    else:
        out.update({"code": "INVALID_INPUT", "retryable": False})
    return out


def _failed(exc: Exception) -> dict:
    out = {"ok": False, "error": str(exc)}
    out["code"] = "INTERNAL_ERROR"
    return out


@mcp.tool()
def render(scene: str) -> dict:
    try:
        return client.submit(scene)
    except Exception as exc:
        return _fail(exc)


@mcp.tool()
def status(job: str) -> dict:
    try:
        return client.status(job)
    except Exception as exc:
        return _failed(exc)  # reported


@mcp.tool()
def cancel(job: str) -> dict:
    try:
        return client.cancel(job)
    except Exception as exc:
        result = {"ok": False, "error": str(exc)}
        result["error_code"] = "JOB_NOT_CANCELLABLE"
        return result
"""


def test_a_helper_adding_a_kind_to_its_result_returns_a_typed_error(tmp_path: Path) -> None:
    # `_fail` adds a code to the dict holding the text: typed, silent at its caller and in itself; `_failed` adds only
    # a catch-all code: reported at its caller; a handler typing its own dict by a subscript: silent
    path = tmp_path / "render_mcp.py"
    path.write_text(TYPED)
    assert _reported(path) == _marked(path, "reported")


def test_a_carried_class_raised_in_place_of_another_failure_is_no_refusal(tmp_path: Path) -> None:
    # keycloak's shape: `DeadlineExceeded` written as a sentence but raised `from` the last request's error (or in an
    # `except` body): a timeout, not a refusal of the input; a refusal that hands its text on stays reported
    config = CONFIG + """\


def fetch(client, path):
    try:
        return client.get(path)
    except TimeoutError as last:
        raise ConfigError(f"deadline passed before {path}") from last
"""
    path = _project(tmp_path, config=config)
    assert _reported(path) == _marked(path, "reported", "user-input")


def test_a_kind_from_the_helpers_own_parameter_types_nothing(tmp_path: Path) -> None:
    # `response["error_type"] = error_type` only when a caller passes one: the callers that pass none return the text
    path = tmp_path / "billing_mcp.py"
    path.write_text('''\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("billing")


def format_error(data: dict, error_type: str | None = None) -> dict:
    response = {"status": "error", "data": data}
    if error_type is not None:
        response["error_type"] = error_type
    return response


@mcp.tool()
def credits(start: str) -> dict:
    try:
        return client.credits(start)
    except Exception as e:
        return format_error({"message": str(e)})  # reported
''')
    assert _reported(path) == _marked(path, "reported")
