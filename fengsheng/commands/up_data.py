"""The data directory of ``fengsheng up``: what must survive a restart (or a crash).

Layout (the directory is 0700, every file in it 0600)::

    DATA/
      lock              held (flock) by the running ``up``: one ``up`` per directory
      redis/            the embedded Redis's AOF: matches, ratings, accounts, queued tasks
      redis.conf        the embedded Redis's configuration (rewritten at each start)
      redis.password    the embedded Redis's password
      token.secret      the secret signing seat tokens (browsers' tokens stay valid)
      service.token     the credential the gateway and workers present to the engine
      logs/             each child's output: redis.log, engine.log, worker.log, gateway.log
                        (the previous run's as NAME.log.1); kept by --fresh

Default place: ``$FENGSHENG_DATA_DIR``; else ``./.fengsheng`` when ``up`` runs at the top of a
fengsheng checkout (``./dev up``); else ``$XDG_DATA_HOME/fengsheng`` (``~/.local/share/fengsheng``).
``--fresh`` deletes the entries above (nothing else) before starting.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import secrets
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from services.config import read_secret_file, write_secret_file

#: files and folders ``--fresh`` removes (and nothing else: the directory may be the user's)
ENTRIES = ("redis", "redis.conf", "redis.password", "token.secret", "service.token")


def default_data_dir(cwd: Path | None = None) -> Path:
    """Where ``up`` keeps its data unless told (see the module docstring)."""
    if os.environ.get("FENGSHENG_DATA_DIR"):
        return Path(os.environ["FENGSHENG_DATA_DIR"]).expanduser()
    here = cwd or Path.cwd()
    pyproject = here / "pyproject.toml"
    if (here / ".git").exists() and pyproject.is_file() and 'name = "fengsheng"' in pyproject.read_text():
        return here / ".fengsheng"
    xdg = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(xdg) / "fengsheng"


class DataDirError(RuntimeError):
    """The data directory cannot be used (someone else's, or in use by another ``up``)."""


@dataclass
class DataDir:
    """An opened, locked data directory."""

    path: Path
    _lock: IO[bytes]

    @property
    def redis_dir(self) -> Path:
        return self.path / "redis"

    @property
    def logs_dir(self) -> Path:
        """The children's logs (``NAME.log``, the previous run's ``NAME.log.1``)."""
        return self.path / "logs"

    @property
    def redis_conf(self) -> Path:
        return self.path / "redis.conf"

    def secret(self, name: str, nbytes: int = 32) -> str:
        """The secret kept in the file ``name``, generated (``secrets.token_urlsafe``) the
        first time; the file is 0600 and refused if anyone else may read it."""
        path = self.path / name
        if path.exists():
            value = read_secret_file(str(path))
            if value:
                return value
        value = secrets.token_urlsafe(nbytes)
        write_secret_file(path, value)
        return value

    def close(self) -> None:
        with contextlib.suppress(OSError):
            fcntl.flock(self._lock.fileno(), fcntl.LOCK_UN)
        self._lock.close()


def open_data_dir(path: Path, *, fresh: bool = False) -> DataDir:
    """Create (0700) and lock ``path``; with ``fresh`` empty it first. Refuses a directory
    owned by another user or one another ``up`` holds."""
    path = path.expanduser().resolve()
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    info = path.stat()
    if info.st_uid != os.getuid():
        raise DataDirError(f"the data directory {path} belongs to another user; choose one with --data-dir")
    if stat.S_IMODE(info.st_mode) & 0o077:
        os.chmod(path, 0o700)  # it holds secrets: owner only
    lock = (path / "lock").open("ab")
    os.fchmod(lock.fileno(), 0o600)
    try:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        raise DataDirError(
            f"another `fengsheng up` is using the data directory {path}; stop it or choose another with --data-dir"
        ) from None
    if fresh:
        for name in ENTRIES:
            entry = path / name
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink(missing_ok=True)
    (path / "redis").mkdir(mode=0o700, exist_ok=True)
    (path / "logs").mkdir(mode=0o700, exist_ok=True)
    return DataDir(path, lock)
