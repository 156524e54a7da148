"""Files written whole, and paths refused before the work (docs/league.md#the-table).

Everything the package writes (the league's `--out`, `play --save`, the
cfr policy cache; the solver's checkpoints, binary, by `save_atomically`)
goes through `write_atomically`: a temporary file in the
target's own folder, written, flushed and synced, then renamed over the
target, so a crash or a full disk leaves the old file or the new one,
never half of one. `check_writable` refuses a path that cannot take that
file before a long run starts, not after it.
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
