"""Writing files so that nothing is lost: every file assay writes is written to a temporary
file in the same folder and renamed over the target only once it is complete.

A full disk, a file-size limit, an exception or Ctrl-C in the middle of a write therefore
leaves the previous file as it was (and no temporary file behind), never a truncated one.
The file gets the mode a plain ``open(path, "w")`` would give it: an existing file keeps its
mode, a new one gets ``0o666`` less the umask. Writing through a symbolic link replaces the
file it points to (the link stays); a target that is not a regular file (``/dev/stdout``, a
named pipe) is written directly, as there is nothing to keep.

:func:`file_key` identifies the file a path names (symbolic and hard links, relative paths,
``./x`` share one key) and :func:`same_file` compares two paths by it, for the command
line's refusal to write over its own inputs or take one file twice.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import IO, Any

__all__ = [
    "atomic_open",
    "atomic_path",
    "distinct_inputs",
    "file_key",
    "same_file",
    "unique_names",
]

PathLike = str | os.PathLike[str]


def _umask() -> int:
    """The process's umask, read without changing it where the system says it (Linux)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)  # elsewhere: set and restore at once
    os.umask(mask)
    return mask


def _target(path: PathLike) -> tuple[str, int | None]:
    """The file to replace (a symbolic link's target) and its mode if it exists; a mode of
    -1 for an existing file that is not a regular file (written in place)."""
    real = os.path.realpath(os.fspath(path))
    try:
        st = os.stat(real)
    except FileNotFoundError:
        return real, None
    if not stat.S_ISREG(st.st_mode):
        return real, -1
    if not os.access(real, os.W_OK):  # a plain write would be refused: so is this one
        raise PermissionError(13, "Permission denied", os.fspath(path))
    return real, stat.S_IMODE(st.st_mode)


@contextmanager
def atomic_path(path: PathLike, *, suffix: str | None = None) -> Iterator[str]:
    """A temporary path beside ``path`` to write to (by a library that wants a file name);
    renamed over ``path`` when the block ends normally, removed when it raises. ``suffix``
    (default: ``path``'s own) keeps libraries that look at the extension content."""
    real, mode = _target(path)
    if mode == -1:
        yield real
        return
    import tempfile  # here: a run printed to stdout writes no file

    folder, name = os.path.split(real)
    ext = os.path.splitext(name)[1] if suffix is None else suffix
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=f".part{ext}", dir=folder or ".")
    except OSError as exc:  # name the file asked for, not the temporary one
        raise type(exc)(exc.errno, exc.strerror, os.fspath(path)) from None
    os.close(fd)
    try:
        yield tmp
        os.chmod(tmp, (0o666 & ~_umask()) if mode is None else mode)
        os.replace(tmp, real)
    except BaseException as exc:
        with suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError) and exc.filename is None:  # "File too large": which?
            raise OSError(exc.errno or 0, exc.strerror or str(exc), os.fspath(path)) from exc
        raise


@contextmanager
def atomic_open(
    path: PathLike, mode: str = "wb", *, encoding: str | None = None
) -> Iterator[IO[Any]]:
    """``open(path, mode)`` for writing (``"w"`` or ``"wb"``), atomically: the data reach
    ``path`` only when the block ends normally (flushed and synced to disk first)."""
    if mode not in ("w", "wb"):
        raise ValueError(f"atomic_open writes whole files: mode 'w' or 'wb', not {mode!r}")
    with atomic_path(path) as tmp, open(tmp, mode, encoding=encoding) as fh:
        yield fh
        fh.flush()
        if tmp != os.path.realpath(os.fspath(path)):
            os.fsync(fh.fileno())


def file_key(path: PathLike) -> tuple[int, int] | str:
    """What identifies the file ``path`` names: its device and inode where it exists (one
    key for every symbolic or hard link to it), else its resolved path."""
    try:
        st = os.stat(path)
    except OSError:
        return os.path.realpath(os.fspath(path))
    return st.st_dev, st.st_ino


def same_file(a: PathLike, b: PathLike) -> bool:
    """Whether ``a`` and ``b`` name one file (:func:`file_key`)."""
    return file_key(a) == file_key(b)


def distinct_inputs(paths: list[str], what: str) -> None:
    """Refuse a file given twice among ``paths`` (the same path, or two paths to one file):
    results are keyed by name, so one of the two vanished ("needs at least two runs", one row
    instead of two), or a run was compared with itself. ``-`` (stdin) is not a file."""
    from .errors import InputError

    seen: dict[tuple[int, int] | str, str] = {}
    for path in paths:
        if path == "-":
            continue
        key = file_key(path)  # one file under two names (./x, a link) has one key
        if key in seen:
            first = seen[key]
            also = "" if first == path else f" (as {first} and {path})"
            raise InputError(
                f"the {what} file {first} is given twice{also}; give each {what} once (to "
                f"compare a {what} with itself, copy it under another name)"
            )
        seen[key] = path


def unique_names(paths: list[str]) -> list[str]:
    """File names (without a ``.gz``) when they are unique, else the paths as given: the
    names of runs, systems and models read from files."""
    names = [os.path.basename(p[:-3] if p.endswith(".gz") else p) or p for p in paths]
    if len(set(names)) == len(names):
        return names
    return paths
