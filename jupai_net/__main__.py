"""``python -m jupai_net`` = the ``jupai`` command."""

import sys

from .cli import main

sys.exit(main())
