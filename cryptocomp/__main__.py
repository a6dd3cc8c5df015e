"""``python -m cryptocomp``: the same as the ``cryptocomp`` command."""

from .cli import main

raise SystemExit(main())
