"""``python -m smullyan``: the same as the ``smullyan`` command."""

from smullyan.linter.cli import main

raise SystemExit(main())
