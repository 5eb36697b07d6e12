"""Where the jupai config folder and its settings file are, and the one setting a
command needs before its command line is parsed: the language (specs/client.md §
Settings). Kept apart from :mod:`jupai_net.config` (which checks every setting) so
that every command's start-up reads it cheaply."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

FILE_NAME = "config.toml"


class ConfigError(ValueError):
    """The settings file cannot be used; ``str(exc)`` says why in one sentence per
    problem, naming the file, the key and, for an unknown key, the nearest valid one.
    (Defined here so that ``jupai`` can catch it without loading :mod:`jupai_net.config`.)"""


def config_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The jupai config folder (settings, certificates, known hosts, transcripts):
    ``$JUPAI_CONFIG_DIR``, else ``$XDG_CONFIG_HOME/jupai``, else ``~/.config/jupai``."""
    env = os.environ if environ is None else environ
    if env.get("JUPAI_CONFIG_DIR"):
        return Path(env["JUPAI_CONFIG_DIR"])
    if env.get("XDG_CONFIG_HOME"):
        return Path(env["XDG_CONFIG_HOME"]) / "jupai"
    home = env.get("HOME")
    return (Path(home) if home else Path.home()) / ".config" / "jupai"


def config_path() -> Path:
    """``<jupai config folder>/config.toml`` (:func:`config_dir`)."""
    return config_dir() / FILE_NAME


def lang_setting(path: Path | None = None) -> str | None:
    """The settings file's ``lang`` when it is ``"zh"`` or ``"en"``, else None — read
    leniently (no other key is checked, no error raised), because the language must
    be known before the command line is parsed (``--help``, argparse's errors); a
    file the command cannot use is reported by the command itself
    (:func:`jupai_net.config.load_settings`)."""
    try:
        path = path or config_path()
        if not path.is_file():
            return None
        import tomllib

        value = tomllib.loads(path.read_text(encoding="utf-8")).get("lang")
    except (OSError, ValueError):  # unreadable, not UTF-8, not TOML
        return None
    return value if value in ("en", "zh") else None
