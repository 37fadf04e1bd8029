# The two fresh-machine commands (see README): `make run` and `make test`.
.PHONY: run test lint bench

run:
	scripts/setup.sh
	.venv/bin/medprobe run

test:
	scripts/setup.sh dev
	.venv/bin/ruff check medprobe tests testing benchmarks
	.venv/bin/python -m pytest -q

bench:
	scripts/setup.sh dev
	.venv/bin/python -m benchmarks.engine
