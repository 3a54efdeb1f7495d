# The two set-up commands on a fresh machine are `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test bench bench-full lint docs venv clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[all,dev]'
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(BIN)/assay demo

test: $(STAMP)
	$(BIN)/python -m pytest -q -n 2

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_evaluate.py
	$(BIN)/python benchmarks/bench_pytrec_compat.py
	$(BIN)/python benchmarks/bench_compare.py --tools assay
	$(BIN)/python benchmarks/bench_agreement.py
	$(BIN)/python benchmarks/bench_fusion.py --tools assay
	$(BIN)/python benchmarks/bench_embeddings.py

# ranx's compare takes about 11 minutes on 2 cores: run it on purpose only.
bench-full: bench
	$(BIN)/python benchmarks/bench_compare.py --tools assay ranx --runs 1
	$(BIN)/python benchmarks/bench_fusion.py --tools assay ranx --runs 1

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy

docs: $(STAMP)
	$(BIN)/python -c "from assay.metrics.catalog import document; open('docs/metrics.md', 'w').write(document())"

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
