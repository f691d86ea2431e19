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
module's ``parse``. Where a framework carries only text, the text is the
explanation followed by the JSON envelope on its own last line.
"""
