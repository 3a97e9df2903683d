"""Stopping a long run the way Ctrl-C does, whatever sent the signal, and only once.

A job started in the background of a non-interactive shell (``nohup cmd &``, a
script) begins with SIGINT ignored, and ``kill`` sends SIGTERM, which Python does
not turn into an exception: either way the runner's Ctrl-C path (finished records
kept, the session's wall time recorded) would never run. A second signal while
that path shuts the workers down (Ctrl-C pressed twice, or ``kill`` reaching a
``timeout`` wrapper that forwards it) would only cut the shutdown short and print
a traceback, so after the first one both are ignored.
"""

from __future__ import annotations

import signal


def _interrupt_once(signum: int, frame: object) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise KeyboardInterrupt


def stop_like_ctrl_c() -> None:
    """Makes the first SIGINT or SIGTERM raise KeyboardInterrupt, and ignores the rest."""
    signal.signal(signal.SIGTERM, _interrupt_once)
    signal.signal(signal.SIGINT, _interrupt_once)
