"""Stopping a long run the way Ctrl-C does, whatever sent the signal.

A job started in the background of a non-interactive shell (``nohup cmd &``, a
script) begins with SIGINT ignored, and ``kill`` sends SIGTERM, which Python does
not turn into an exception: either way the runner's Ctrl-C path (finished records
kept, the session's wall time recorded) would never run.
"""

from __future__ import annotations

import signal


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def stop_like_ctrl_c() -> None:
    """Makes SIGTERM, and SIGINT where it was ignored, raise KeyboardInterrupt."""
    signal.signal(signal.SIGTERM, _interrupt)
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
