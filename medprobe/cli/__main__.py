"""``python -m medprobe.cli``: the command, as ``python -m medprobe``."""

from medprobe.cli import main

main()
