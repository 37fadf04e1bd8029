"""Support shared by the test suite and the benchmarks: the mock OpenAI-compatible server, a server that
misbehaves on purpose, small input files in every format medprobe reads, and the reply corpus's reader.

Not part of medprobe: the wheel ships ``medprobe*`` only, so none of this is installed. Tests and
benchmarks run from the repository root, where ``testing`` is importable.
"""
