"""Source files in and out: the one decoder, the one strict reader and the one atomic writer.

Every part of the linter that turns a file's bytes into text or writes a file
goes through here (the engine, the text output, ``--fix``, ``--add-noqa``, the
flake8 plugin), so that all of them read a file as Python does:

- :func:`decode`: lenient, for reading only (linting, showing a line): the
  PEP 263 cookie or the BOM, else UTF-8; undecodable bytes become U+FFFD; the
  BOM is removed. Never raises.
- :func:`read` / :func:`from_bytes`: strict, for a file that will be written
  back: a :class:`Source` with the text and what it takes to write the text
  the same way (encoding, BOM, line ending). Raises ``OSError`` (read),
  ``SyntaxError`` (a bad cookie), ``UnicodeDecodeError`` or ``LookupError``.
- :func:`write_atomic`: replace a file's bytes atomically (a temporary file in
  the same directory, then ``os.replace``), keeping its mode; a symlink's
  target is written.
"""

from __future__ import annotations

import io
import os
import re
import stat
import tempfile
import tokenize
from dataclasses import dataclass

_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # what ends a line for Python and libcst

__all__ = ["Source", "Text", "decode", "from_bytes", "newline_of", "read", "write_atomic"]


def decode(source: bytes | str) -> str:
    """Source text as Python reads it: PEP 263 cookie or BOM, else UTF-8; BOM removed."""
    if isinstance(source, str):
        return source[1:] if source.startswith("\ufeff") else source
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
    except SyntaxError:
        encoding = "utf-8"
    try:
        text = source.decode(encoding, errors="replace")
    except LookupError:
        text = source.decode("utf-8", errors="replace")
    return text[1:] if text.startswith("\ufeff") else text


class Text:
    """One lint's source, decoded (:func:`decode`) at most once, when first asked: most files never are."""

    __slots__ = ("raw", "_text")

    def __init__(self, raw: bytes | str) -> None:
        self.raw = raw
        self._text: str | None = None

    def get(self) -> str:
        if self._text is None:
            self._text = decode(self.raw)
        return self._text


def newline_of(text: str) -> str:
    """The text's first line ending (``\\n`` when it has none)."""
    m = _LINE_BREAK.search(text)
    return m.group() if m else "\n"


@dataclass(frozen=True)
class Source:
    """A file's bytes, its text as Python reads it, and how to write text back the same way."""

    data: bytes
    text: str
    encoding: str  # "utf-8-sig" when the file starts with a BOM

    @property
    def newline(self) -> str:
        return newline_of(self.text)

    def encode(self, text: str) -> bytes:
        return text.encode(self.encoding)


def from_bytes(data: bytes) -> Source:
    """Decode ``data`` strictly, as Python does (BOM, PEP 263 cookie)."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    text = data.decode(encoding)
    if text.startswith("\ufeff"):  # a BOM with a cookie that does not say utf-8-sig
        text = text[1:]
        encoding = "utf-8-sig"
    return Source(data, text, encoding)


def read(path: str | os.PathLike[str]) -> Source:
    """The file at ``path``, decoded strictly (:func:`from_bytes`)."""
    with open(path, "rb") as f:
        data = f.read()
    return from_bytes(data)


def write_atomic(path: str, data: bytes) -> None:
    """Replace the file's content atomically, keeping its mode (a symlink's target is written)."""
    target = os.path.realpath(path)
    mode = stat.S_IMODE(os.stat(target).st_mode)
    directory, name = os.path.split(target)
    fd, tmp = tempfile.mkstemp(dir=directory or ".", prefix=f".{name}.", suffix=".smullyan-tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
