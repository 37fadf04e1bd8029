"""The evaluation platform (``medprobe serve``): publish probe packs, take submissions, score them
with the engine in a background worker, show results and an opt-in leaderboard.

Layout: ``models`` (tables), ``db`` (engine, sessions, migrations), ``benchmarks`` (publishing and
probe packs), ``answers`` (reading uploads), ``scoring`` (the job), ``worker`` (the durable queue),
``leaderboard``, ``auth``, ``api`` (JSON), ``pages`` (HTML), ``app``, ``serve``, ``client``.

The gold answers never leave the server: probe packs carry public ids and no gold, per-item
scores stay in the database, and every page or download is built from gold-free parts.
"""
