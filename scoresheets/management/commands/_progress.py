"""A plain text progress bar on stderr (no extra dependency)."""

from __future__ import annotations

import sys


class ProgressBar:
    """``bar(done, total)`` redraws ``label [#####.....] done/total`` on one line; the
    caller calls ``finish()`` at the end. Draws nothing when ``enabled`` is false."""

    def __init__(self, label: str, *, stream=None, width: int = 30, enabled: bool = True):
        self.label = label
        self.stream = stream or sys.stderr
        self.width = width
        self.enabled = enabled
        self.drawn = False

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total <= 0:
            return
        filled = self.width * done // total
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {done}/{total}")
        self.stream.flush()
        self.drawn = True

    def finish(self) -> None:
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()
            self.drawn = False
