"""The player's settings: ``config.toml`` in the jupai config folder, and ``jupai config``
to show where it is and what is in force (specs/client.md § Settings).

Settings (all optional, top-level keys)::

    name = "Ann"            # your name at a table (jupai join / jupai play)
    lang = "zh"             # language of every screen: "zh" or "en"
    opponents = "expert"    # the bots of jupai play, and of jupai host's bot seats
    host = "gamebox:47474"  # the table jupai join joins when given no address

A command-line flag beats the file, the file beats the default (the login name, the
locale's language, ``greedy``, looking for tables on the LAN). A file that cannot be
used stops the command with one sentence naming the file and the key (exit 2).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, NamedTuple

from .configfile import FILE_NAME, ConfigError, config_dir, config_path, lang_setting  # noqa: F401 - part of this module's API

#: Every setting and its meaning (for `jupai config` and the template).
KEYS = {
    "name": "your name at a table (jupai join, jupai play)",
    "lang": "language of every screen: zh or en",
    "opponents": "the bots of jupai play and of jupai host's bot seats",
    "host": "the table `jupai join` joins when given no address (HOST[:PORT])",
}

TEMPLATE = """# jupai settings (see `jupai config`). Every key is optional; a command-line flag wins.
# name = "Ann"            # {name}
# lang = "zh"             # {lang}
# opponents = "greedy"    # {opponents}
# host = "gamebox:47474"  # {host}
""".format(**KEYS)


class Settings(NamedTuple):
    """The settings read from ``path`` (``exists``: whether there is a file). Unset
    keys are absent from ``values``."""

    path: Path
    exists: bool = False
    values: dict[str, Any] = {}  # noqa: RUF012 - never changed: load_settings builds a new dict

    def get(self, key: str) -> Any:
        """The value of ``key`` (one of :data:`KEYS`), ``None`` when unset."""
        return self.values.get(key)


def _check(path: Path, key: str, value: Any) -> Any:
    """``value`` of setting ``key`` when it is valid, else :class:`ConfigError` with one
    sentence in the run's language naming the file and the key."""
    from .bots import BOTS
    from .messages import current_lang, names_text, t

    where = t("config.where", path=path, key=key)
    if not isinstance(value, str):
        raise ConfigError(t("config.bad.not_string", where=where, key=key))
    if key == "lang" and value not in ("en", "zh"):
        raise ConfigError(t("config.bad.lang", where=where, value=repr(value)))
    if key == "opponents" and value not in BOTS:
        raise ConfigError(t("config.bad.opponents", where=where, names=names_text(sorted(BOTS)), value=repr(value)))
    if key == "name":
        from .client.cli import name_why

        why = name_why(value)
        if why is not None:
            raise ConfigError(t("config.bad.name", where=where, why=why))
    if key == "host":
        from .client.cli import AddressError, parse_address

        try:
            parse_address(value)
        except AddressError as exc:
            raise ConfigError(t("config.bad.host", where=where, why=exc.text(current_lang()))) from None
        except ValueError as exc:
            raise ConfigError(t("config.bad.host", where=where, why=exc)) from None
    return value


def load_settings(path: Path | None = None) -> Settings:
    """Read and check the settings file (``path``, default :func:`config_path`); no file
    gives empty settings. Raises :class:`ConfigError` for a file that is not UTF-8, not
    TOML, or has unknown keys or bad values (all of them in one error)."""
    import tomllib

    from .textfile import TextFileError, read_text_file

    path = path or config_path()
    try:  # the shared reader of files a person writes: a GBK file is named as such
        text = read_text_file(path, missing_ok=True)
    except TextFileError as exc:
        raise ConfigError(str(exc)) from None
    if text is None:
        return Settings(path, False, {})
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        from .textfile import toml_problem

        raise ConfigError(toml_problem(path, exc)) from None
    from .messages import names_text, t

    problems = []
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key not in KEYS:
            import difflib

            near = difflib.get_close_matches(key, list(KEYS), n=1)
            problems.append(t("config.unknown.near", path=path, key=repr(key), near=repr(near[0])) if near
                            else t("config.unknown.known", path=path, key=repr(key), known=names_text(KEYS)))
            continue
        try:
            values[key] = _check(path, key, value)
        except ConfigError as exc:
            problems.append(str(exc))
    if problems:
        raise ConfigError(t("config.problems.sep").join(problems))
    return Settings(path, True, values)


_cached: Settings | None = None


def settings() -> Settings:
    """The settings in force for this process (read once per config path). Raises
    :class:`ConfigError`."""
    global _cached
    if _cached is None or _cached.path != config_path():
        _cached = load_settings()
    return _cached


def login_name() -> str:
    """The login name of the person running jupai, the one rule behind every default
    name (specs/host.md § 2, specs/client.md § Settings): ``LOGNAME``, ``USER``,
    ``LNAME`` or ``USERNAME`` when set, else the account of the process's user id in
    the password database (``root``, also with ``USER`` and ``LOGNAME`` unset), made
    printable and cut to 24 characters; ``player`` when there is none."""
    import getpass

    try:
        name = getpass.getuser()
    except Exception:  # noqa: BLE001 - no variable and no user database entry (OSError, KeyError)
        name = ""
    name = "".join(c for c in name if c.isprintable()).strip()[:24]
    return name or "player"


def default_name() -> str:
    """A player's name when they give none: the settings' ``name``, else
    :func:`login_name`. ``jupai join``/``watch``/``play`` seat the player under it, and
    ``jupai host`` names its table after it (``Ann's table``). Raises
    :class:`ConfigError` for a settings file that cannot be used."""
    return settings().get("name") or login_name()


def default_lang() -> str:
    """The language when no ``--lang`` is given: the settings' ``lang``, else the locale's."""
    from .messages import detect_lang

    return settings().get("lang") or detect_lang()


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``config`` subcommand to ``subparsers``; it sets ``func=run``."""
    from .messages import t

    p = subparsers.add_parser("config", help=t("config.help"), description=t("config.description"),
                              epilog=t("config.epilog"))
    p.add_argument("--init", action="store_true", help=t("config.opt.init"))
    p.set_defaults(func=run)
    return p


def _defaults() -> dict[str, str]:
    from .messages import detect_lang, t

    return {"name": login_name(), "lang": detect_lang(), "opponents": "greedy", "host": t("config.no_host")}


def run(args: argparse.Namespace) -> int:
    """Run ``jupai config`` (in the run's language); returns 0, or 2 when the file
    cannot be used or written."""
    from .messages import t

    path = config_path()
    if args.init:
        if path.exists():
            print(f"jupai config: {t('config.exists', path=path)}", file=sys.stderr)
            return 2
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(TEMPLATE, encoding="utf-8")
        except OSError as exc:
            print(f"jupai config: {t('config.cannot_write', path=path, reason=exc.strerror or exc)}", file=sys.stderr)
            return 2
        print(t("config.wrote", path=path))
        return 0
    try:
        s = load_settings(path)
    except ConfigError as exc:
        print(f"jupai config: {exc}", file=sys.stderr)
        return 2
    rows = [("", t("config.file", path=path) + ("" if s.exists else t("config.none_yet")))]
    defaults = _defaults()
    flags = {"lang": getattr(args, "lang", None)}  # a flag of this very command line wins (jupai config --lang zh)
    for key in KEYS:
        if flags.get(key) is not None:
            value, source = flags[key], t("config.from_flag", flag=f"--{key}")
            if s.get(key) is not None and s.get(key) != value:
                source += t("config.over_file", value=s.get(key))
        else:
            value, source = ((s.get(key), t("config.from_file")) if s.get(key) is not None
                             else (defaults[key], t("config.from_default")))
        rows.append((key, f"{value}  [{source}] — {t(f'config.key.{key}')}"))
    _print_rows(rows)
    return 0


def _print_rows(rows: list[tuple[str, str]]) -> None:
    """``jupai config``'s lines: ``(key, text)`` pairs, the key in a column of its own
    (a row without one is a whole line). On a terminal each text is wrapped at word
    boundaries (a Chinese line between characters) to the terminal's width, its
    continuation lines under the text; into a pipe or a file every row is one line."""
    width = max(len(k) for k, _ in rows)
    if not sys.stdout.isatty():
        for key, text in rows:
            print(f"  {key.ljust(width)}  {text}" if key else text)
        return
    import shutil

    from .helpformat import wrap

    columns = max(40, shutil.get_terminal_size().columns)
    indent = " " * (width + 4)
    for key, text in rows:
        if not key:
            print("\n".join(wrap(text, columns, keep_spaces=True)))
            continue
        lines = wrap(text, columns - len(indent), keep_spaces=True)
        print("\n".join([f"  {key.ljust(width)}  {lines[0]}"] + [indent + line for line in lines[1:]]))
