"""A one-line progress bar with ETA on stderr (redrawn on a terminal, logged otherwise)."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    def __init__(
        self,
        total: int,
        done: int = 0,
        unit: str = "tasks",
        stream: TextIO | None = None,
        width: int = 30,
    ):
        self.total, self.done, self.unit, self.width = total, done, unit, width
        self.start_done = done
        self.stream = stream or sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.t0 = time.monotonic()
        self.last_log = 0.0
        self.errors = 0

    def line(self) -> str:
        frac = self.done / self.total if self.total else 1.0
        filled = int(frac * self.width)
        bar = "#" * filled + "." * (self.width - filled)
        elapsed = time.monotonic() - self.t0
        new = self.done - self.start_done
        eta = hms(elapsed / new * (self.total - self.done)) if new else "?"
        errors = f"  {self.errors} errors" if self.errors else ""
        return (
            f"[{bar}] {self.done}/{self.total} {self.unit}  elapsed {hms(elapsed)}  "
            f"eta {eta}{errors}"
        )

    def update(self, n: int = 1, error: bool = False) -> None:
        self.done += n
        self.errors += int(error)
        now = time.monotonic()
        if self.tty:
            self.stream.write("\r" + self.line())
            self.stream.flush()
        elif now - self.last_log >= 10 or self.done == self.total:
            self.last_log = now
            self.stream.write(self.line() + "\n")
            self.stream.flush()

    def close(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()


def hms(seconds: float) -> str:
    seconds = int(round(seconds))
    h, rem = divmod(seconds, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
