"""``python -m smullyan``: the same as the ``smullyan`` command."""

from .linter.cli import main

raise SystemExit(main())
