"""Running the ``jupai`` command as a person types it, for the tests (no tests here)."""

from __future__ import annotations

import os
import subprocess
import sys

#: The command line of ``jupai`` in this interpreter (the installed script may be another one).
JUPAI = [sys.executable, "-m", "jupai_net"]


def jupai(*args: str, env: dict[str, str] | None = None, columns: int = 400,
          timeout: float = 60) -> subprocess.CompletedProcess:
    """``jupai ARGS…`` run to its end with stdout and stderr captured as text, at
    ``columns`` columns (wide: a sentence is on one line), ``env`` added to this
    process's environment."""
    return subprocess.run(JUPAI + list(args), capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "COLUMNS": str(columns), **(env or {})})
