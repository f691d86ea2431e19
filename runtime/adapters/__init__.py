"""Adapters: ToolErrors in each agent framework's own envelope, and back.

One small module per framework, each an optional extra; importing this
package imports none of them, and ``import smullyan.runtime`` never imports
this package::

    from smullyan.runtime.adapters import mcp            # pip install 'smullyan[mcp]'
    from smullyan.runtime.adapters import openai_agents  # pip install 'smullyan[openai-agents]'
    from smullyan.runtime.adapters import langchain      # pip install 'smullyan[langchain]'
    from smullyan.runtime.adapters import pydantic_ai    # pip install 'smullyan[pydantic-ai]'

Everywhere the model reads :func:`smullyan.runtime.explain`, and a program
gets the wire envelope (:func:`smullyan.runtime.dump`) back with the
module's ``parse``, both bounded and sanitised. Where a framework carries
only text, the text is the explanation followed by a marked envelope line
that no successful output of an adapted tool can end in. The framework's own
control signals and cancellation pass through untouched; an exception's own
text is withheld from the model and logged on the framework's logger. The
shared part is ``_core`` (see docs/runtime.md, "Framework adapters").
"""
