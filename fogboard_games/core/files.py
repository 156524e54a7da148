"""Files written whole, files read safely, and paths refused before the work
(docs/league.md#the-table, docs/reviews.md#the-review-command).

Everything the package writes (the league's `--out`, `play --save`, the
cfr policy cache; the solver's checkpoints, binary, by `save_atomically`)
goes through `write_atomically`: a temporary file in the
target's own folder, written, flushed and synced, then renamed over the
target, so a crash or a full disk leaves the old file or the new one,
never half of one. `check_writable` refuses a path that cannot take that
file before a long run starts, not after it, and `check_distinct` a path
that is another of the same command's files (an output written over its
own input). `read_regular` reads a file a stranger named, refusing a pipe
or a device that would block or never end.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat

# What every refusal offers instead.
WANTED = "want the path of a regular file in an existing directory that can be written"


def _temp_name(target: str) -> str:
    """A fresh hidden name beside `target` (the name shortened, so it always fits)."""
    folder, name = os.path.split(target)
    return os.path.join(folder, f".{name[:60]}.{os.urandom(6).hex()}.tmp")


def _open_temp(target: str) -> tuple[int, str]:
    """A new temporary file beside `target`, opened for writing, and its name."""
    for _ in range(100):
        tmp = _temp_name(target)
        try:
            # Mode 0o666 lets the kernel apply the umask, as for a plain open().
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name", target)


def _static_problem(path: str) -> str | None:
    """Why `path` cannot be replaced by a new file, from what is on disk (None if it can)."""
    if not path:
        return "is empty"
    if path.endswith((os.sep, "/")):
        return "names a directory, not a file"
    target = os.path.realpath(path)  # a symlink's file is replaced, the link kept
    folder, name = os.path.split(target)
    with contextlib.suppress(OSError, ValueError):
        limit = os.pathconf(folder, "PC_NAME_MAX")
        if len(os.fsencode(name)) > limit:
            return f"its name is longer than the {limit} bytes its directory allows"
    try:
        st = os.stat(target)
    except FileNotFoundError:
        pass
    except NotADirectoryError:
        return "a part of its directory is a file, not a directory"
    except OSError as e:
        return f"cannot be looked at ({e.strerror})"
    else:
        if stat.S_ISDIR(st.st_mode):
            return "is a directory, not a file"
        if not stat.S_ISREG(st.st_mode):
            # A rename would replace a device such as /dev/full, a pipe or a socket.
            return "exists and is not a regular file (a device, pipe or socket)"
        if not os.access(target, os.W_OK):
            # The rename would overwrite it all the same; respect the owner's choice.
            return "exists and is read-only"
    if not os.path.exists(folder):
        return "its directory does not exist"
    if not os.path.isdir(folder):
        return f"its directory {folder!r} is not a directory"
    return None


def check_writable(path: str, what: str) -> None:
    """ValueError, one line naming `what` and `path` and why, unless `path` can be written.

    Refused: a directory, a path that exists and is not a regular file
    (such as /dev/full), a read-only file, a missing directory, and a
    directory in which no file can be created (tried for real, with a
    temporary file removed at once). Nothing is written to `path` itself.
    """
    problem = _static_problem(path)
    if problem is None:
        try:
            fd, tmp = _open_temp(os.path.realpath(path))
        except OSError as e:
            problem = f"cannot create a file in its directory ({e.strerror or e})"
        else:
            os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    if problem is not None:
        raise ValueError(f"{what} {path!r}: {problem}; {WANTED}")


def write_atomically(path: str, text: str) -> None:
    """Replace `path` by a file holding `text` (UTF-8), whole or not at all.

    OSError if it cannot (the old file, if any, is then untouched and no
    temporary file is left). A process killed mid-write leaves the old file
    whole and, at worst, a hidden `.NAME.*.tmp` file beside it.
    """
    _replace(path, lambda fd: os.fdopen(fd, "w", encoding="utf-8"), lambda f: f.write(text))


def save_atomically(path: str, write) -> None:
    """Replace `path` by the bytes `write(f)` writes into the binary file
    object `f` (numpy's savez, say), whole or not at all, as `write_atomically`."""
    _replace(path, lambda fd: os.fdopen(fd, "wb"), write)


def _replace(path: str, open_fd, write) -> None:
    """Replace `path` by a temporary file beside it, opened by `open_fd(fd)`
    and filled by `write(f)`, then flushed, synced and renamed over it."""
    problem = _static_problem(path)
    if problem is not None:
        raise OSError(errno.EINVAL, problem, path)
    target = os.path.realpath(path)
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)  # an existing file keeps its mode
    except FileNotFoundError:
        mode = None
    fd, tmp = _open_temp(target)
    try:
        with open_fd(fd) as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    # The rename itself survives a power cut once the directory is synced.
    with contextlib.suppress(OSError):
        sync_dir(target)


def sync_dir(path: str) -> None:
    """Sync the folder holding `path`, so a new or renamed name in it
    survives a power cut, not only the file's bytes (OSError if it cannot)."""
    dir_fd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def same_file(a: str, b: str) -> bool:
    """Whether paths `a` and `b` name one file: the same file on disk when both
    exist (through a symlink, a hard link or another spelling of the path),
    else the same path once resolved (a file not yet written)."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        resolved = (os.path.normcase(os.path.realpath(p)) for p in (a, b))
        return len(set(resolved)) == 1


def check_distinct(paths: dict[str, str | None]) -> None:
    """ValueError, one line, when two of a command's paths name one file.

    `paths` maps what each path is, as a refusal names it ("--html", "the
    review"), to the path, None for one not given; each is checked against
    those before it, so list an input before the outputs that could be
    written over it. Nothing is read or written.
    """
    given = [(what, path) for what, path in paths.items() if path is not None]
    for i, (what, path) in enumerate(given):
        for earlier, other in given[:i]:
            if same_file(path, other):
                raise ValueError(
                    f"{what} {path!r} is the same file as {earlier} {other!r}, which it "
                    f"would write over; give {what} a path of its own"
                )


def _kind(mode: int) -> str:
    """What a file that is not a regular one is, by its stat mode."""
    for test, kind in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a named pipe (FIFO)"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return kind
    return "not a regular file"


def read_regular(path: str, limit: int) -> bytes:
    """The first `limit` + 1 bytes of the regular file `path` (a caller
    refuses more than `limit` of them); OSError, whose strerror says why,
    if it cannot be read.

    A directory, a named pipe (whose open or read would wait forever for a
    writer), a device (/dev/zero never ends, and opening some has effects)
    or a socket is refused from its stat before it is opened, and checked
    again on the open file, which is opened without waiting, in case the
    path was replaced in between.
    """
    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode):
        raise OSError(errno.EINVAL, f"{_kind(st.st_mode)}, not a regular file", path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    flags |= getattr(os, "O_BINARY", 0)  # (Windows: no newline translation)
    fd = os.open(path, flags)
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(errno.EINVAL, f"{_kind(st.st_mode)}, not a regular file", path)
        return f.read(limit + 1)
