"""The ``medprobe`` command (console script) and ``python -m medprobe``.

The command's modules take about a second to import. Ctrl-C in that second used to end in a
KeyboardInterrupt traceback from deep inside some import (or from typer reading the commands'
annotations); here both run under the same rule as the commands: an interruption prints one line
and exits with status 130.
"""

from __future__ import annotations

import sys

EXIT_INTERRUPTED = 130


def main() -> None:
    try:
        from medprobe.cli import app

        app()  # builds the command line first (typer reads the annotations), then runs the command
    except KeyboardInterrupt:  # the commands handle their own; this one came before or after one ran
        print("interrupted: run the same command again to resume; finished answers are kept", file=sys.stderr)
        sys.exit(EXIT_INTERRUPTED)


if __name__ == "__main__":
    main()
