"""Benchmarks, each run from the repository root as a module (``python -m benchmarks.engine``), so that
they measure this checkout's medprobe and share the test suite's support package, ``testing``."""
