# The two fresh-machine commands (see README.md): `make run` and `make test`.
.PHONY: run test docs lint bench

run:
	scripts/setup.sh
	.venv/bin/medprobe run

test:
	scripts/setup.sh dev
	.venv/bin/ruff check medprobe tests testing benchmarks
	NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --strict --quiet --site-dir site
	.venv/bin/python -m pytest -q

# The documentation site (docs/, mkdocs.yml) into site/; `.venv/bin/mkdocs serve` to preview while editing.
docs:
	scripts/setup.sh dev
	NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --strict --site-dir site

bench:
	scripts/setup.sh dev
	.venv/bin/python -m benchmarks.engine
