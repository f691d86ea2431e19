"""The Anthropic SDK's toolset classes (``anthropic.tools.computer`` / ``anthropic.tools.browser``, anthropic 2.x,
``anthropic/lib/tools/_toolsets``): a driver subclasses ``BetaAbstractComputerToolset20260801`` (or its async twin,
or the browser's) and overrides the members its backend supports, each ``(self, context: BetaToolsetCallContext,
input)``; the SDK advertises the overridden members and dispatches the model's call to each by name
(``BaseToolset``'s ``getattr(self, name)``). Each overridden member is a tool; ``execute`` (the dispatcher a subclass
may override to serve every member) and the driver's own helpers are not. Base qualified name -> (framework,
(:data:`MEMBERS`, the member names: the SDK's ``COMPUTER_MEMBER_NAMES`` / ``BROWSER_MEMBER_NAMES``))."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

#: the marker (first of a ``TOOL_BASE_CLASSES`` entry's methods) saying the names after it are members, each a tool
MEMBERS: Final = "*members"

_COMPUTER: Final = ("key", "hold_key", "type", "cursor_position", "mouse_move", "left_mouse_down", "left_mouse_up",
                    "left_click", "left_click_drag", "right_click", "middle_click", "double_click", "triple_click",
                    "scroll", "wait", "screenshot", "zoom")
_BROWSER: Final = ("navigate", "list_tabs", "new_tab", "switch_tab", "close_tab", "read_page", "get_page_text",
                   "read_console", "read_network", "find", "form_input", "file_upload", "scroll_to", "screenshot", "zoom",
                   "left_click", "right_click", "middle_click", "double_click", "triple_click", "hover",
                   "left_click_drag", "left_mouse_down", "left_mouse_up", "mouse_move", "scroll", "type", "key",
                   "hold_key", "wait", "javascript_exec")

TOOLSET_BASES: Final[Mapping[str, tuple[str, tuple[str, ...]]]] = {
    f"{module}.Beta{flavour}Abstract{kind}Toolset20260801": ("anthropic", (MEMBERS, *members))
    for kind, members, modules in (
        ("Computer", _COMPUTER, ("anthropic.tools", "anthropic.tools.computer", "anthropic.lib.tools._toolsets._computer")),
        ("Browser", _BROWSER, ("anthropic.tools", "anthropic.tools.browser", "anthropic.lib.tools._toolsets._browser")))
    for module in modules for flavour in ("", "Async")
}

#: the SDK method that runs a toolset member and answers what it raises with text, by the toolset's framework: every
#: exception a member raises but ``ToolsetUsageError`` (the SDK's own misuse) "is reported to the model as an
#: ``is_error`` result and the loop continues" (anthropic/lib/tools/_toolsets/_errors.py; ``_computer.py``'s
#: ``_toolset_run``: "The driver's own error text reaches the model"): the row's ``failures_by`` (s57)
TOOLSET_TEXT: Final[Mapping[str, str]] = {"anthropic": "anthropic.lib.tools._toolsets._base.BaseToolset._toolset_run"}
