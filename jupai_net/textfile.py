"""Reading the text files a person writes (house rules, the known hosts file): one
helper, one clear sentence for every way such a file can be unreadable
(specs/client.md § Bad input).

Files must be UTF-8 (a UTF-8 byte order mark, as older Windows Notepad writes, is
dropped). A file in another encoding is refused with a sentence naming the file and,
when it can be told, the encoding it is probably in: Chinese editors on Windows save
GBK (GB2312/GB18030) by default, Notepad's "Unicode" is UTF-16.
"""

from __future__ import annotations

from pathlib import Path

#: Largest text file read (bytes): house rules and known hosts files are a few KiB.
MAX_TEXT_FILE_BYTES = 1 << 20


class TextFileError(ValueError):
    """A text file cannot be read or is not UTF-8. ``str(exc)`` is one sentence naming
    the file, e.g. ``rules.toml is not UTF-8 (it looks like GBK): save it as UTF-8``;
    ``path`` is the file as given."""

    def __init__(self, path: str | Path, message: str):
        super().__init__(message)
        self.path = str(path)


def _is_cjk(c: str) -> bool:
    """A CJK ideograph, CJK punctuation or a full-width form."""
    o = ord(c)
    return 0x3000 <= o <= 0x303F or 0x3400 <= o <= 0x9FFF or 0xFF00 <= o <= 0xFFEF


def _euc_pair(c: str) -> bool:
    """True when ``c`` is a two-byte GBK character with both bytes in 0xA1..0xFE (the
    GB2312 range every common Chinese character is in; Latin-1 text decoded as GBK
    gives pairs with an ASCII second byte instead)."""
    try:
        b = c.encode("gbk")
    except UnicodeEncodeError:
        return False
    return len(b) == 2 and b[0] >= 0xA1 and b[1] >= 0xA1


def guess_encoding(data: bytes) -> str | None:
    """The encoding ``data`` (not valid UTF-8) is probably in, as a person names it:
    ``"UTF-16"`` (a UTF-16 byte order mark), ``"GBK"`` (decodes as GB18030 to mostly
    Chinese characters of the GB2312 range), or None when it cannot be told."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "UTF-16"
    try:
        text = data.decode("gb18030")
    except UnicodeDecodeError:
        return None
    wide = [c for c in text if ord(c) > 0x7F]
    if wide and 2 * sum(map(_euc_pair, wide)) >= len(wide) and 2 * sum(map(_is_cjk, wide)) >= len(wide):
        return "GBK"
    return None


def decode_utf8(data: bytes, path: str | Path) -> str:
    """``data`` (the bytes of the file ``path``) as text. Raises
    :class:`TextFileError` when it is not UTF-8, naming the likely encoding."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        from .messages import t

        guess = guess_encoding(data)
        if guess is not None:
            why = t("file.not_utf8.looks", encoding=guess)
        else:
            why = t("file.not_utf8.byte", byte=f"{data[exc.start]:02x}", offset=exc.start)
        raise TextFileError(path, t("file.not_utf8", path=path, why=why)) from None


def toml_problem(path: str | Path, exc: ValueError) -> str:
    """``FILE is not valid TOML: Invalid value (at line 1, column 5)`` in the run's
    language (:func:`jupai_net.messages.t`) for ``exc``, a ``tomllib.TOMLDecodeError``
    of the file ``path``: English quotes the parser's words, other languages say where
    (``第 1 行第 5 列有错误``, ``在文件末尾有错误``) and leave the parser's English out."""
    import re

    from .messages import current_lang, t

    text = str(exc)
    if current_lang() == "en":
        return t("file.not_toml", path=path, why=text)
    at = re.search(r"\(at line (\d+), column (\d+)\)", text)
    where = (t("file.toml_at", line=at[1], column=at[2]) if at
             else t("file.toml_end") if "end of document" in text else None)
    if where is None:
        return t("file.not_toml", path=path, why=text)
    return t("file.not_toml", path=path, why=t("file.toml_why", where=where))


def cannot_read(path: str | Path, exc: OSError) -> str:
    """``cannot read FILE: no such file`` (``无法读取 FILE：没有这个文件``) in the run's
    language (:func:`jupai_net.messages.t`): the common causes in words, any other by
    the system's own text."""
    import errno

    from .messages import t

    why = {errno.ENOENT: "file.why.missing", errno.EACCES: "file.why.denied", errno.EISDIR: "file.why.folder",
           errno.ENOTDIR: "file.why.missing"}.get(exc.errno or 0)
    return t("file.cannot_read", path=path, why=t(why) if why else (exc.strerror or str(exc)))


def read_text_file(path: str | Path, *, limit: int = MAX_TEXT_FILE_BYTES, missing_ok: bool = False) -> str | None:
    """The text of the UTF-8 file ``path`` (at most ``limit`` bytes); with
    ``missing_ok``, None when the file does not exist.

    Raises :class:`TextFileError` with one sentence: ``cannot read FILE: No such file
    or directory``, ``FILE is larger than … bytes``, ``FILE is not UTF-8 (it looks like
    GBK): save it as UTF-8``."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
    except FileNotFoundError as exc:
        if missing_ok:
            return None
        raise TextFileError(path, cannot_read(path, exc)) from None
    except OSError as exc:
        raise TextFileError(path, cannot_read(path, exc)) from None
    if len(data) > limit:
        from .messages import t

        raise TextFileError(path, t("file.too_large", path=path, limit=limit))
    return decode_utf8(data, path)
