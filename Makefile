# The two set-up commands on a fresh machine are `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# The rbo package pins numpy<2: it gets its own interpreter for its differential test
# (tests/peers/test_meta_rbo_peer.py, ASSAY_RBO_PYTHON); if it cannot be built the test skips.
RBO_VENV  := .venv-rbo
RBO_STAMP := $(RBO_VENV)/.installed
# ndeval (TREC diversity), compiled from pyndeval's source distribution, is the peer binary of
# tests/peers/test_compat_ndeval_binary.py (ASSAY_NDEVAL); without it that test builds its own.
NDEVAL := .ndeval/ndeval

.PHONY: demo test bench bench-full lint docs venv clean

# compileall: bytecode, as a non-editable install has; with PYTHONDONTWRITEBYTECODE set, every
# process would otherwise compile each module it imports again.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[all,dev]'
	$(BIN)/python -m compileall -q src
	touch $(STAMP)

venv: $(STAMP)

$(RBO_STAMP):
	($(PYTHON) -m venv $(RBO_VENV) && $(RBO_VENV)/bin/python -m pip install --quiet rbo && touch $(RBO_STAMP)) \
		|| echo "rbo peer interpreter not built: tests/peers/test_meta_rbo_peer.py will be skipped"

$(NDEVAL): $(STAMP)
	(mkdir -p .ndeval && $(BIN)/python -m pip download --quiet --no-deps --no-binary :all: pyndeval==0.0.8 -d .ndeval \
		&& tar -xzf .ndeval/pyndeval-0.0.8.tar.gz -C .ndeval && gcc -O2 -o $(NDEVAL) .ndeval/pyndeval-0.0.8/src/ndeval.c -lm) \
		|| echo "ndeval not built: tests/peers/test_compat_ndeval_binary.py builds it itself or skips"

demo: $(STAMP)
	$(BIN)/assay demo --report demo-report.html
	@echo "report: $(abspath demo-report.html)"

test: $(STAMP) $(RBO_STAMP) $(NDEVAL)
	ASSAY_RBO_PYTHON=$(if $(wildcard $(RBO_STAMP)),$(abspath $(RBO_VENV))/bin/python,) \
	ASSAY_NDEVAL=$(if $(wildcard $(NDEVAL)),$(abspath $(NDEVAL)),) $(BIN)/python -m pytest -q -n 2

bench: $(STAMP) $(NDEVAL)
	$(BIN)/python benchmarks/bench_evaluate.py
	$(BIN)/python benchmarks/bench_pytrec_compat.py
	$(BIN)/python benchmarks/bench_prepared.py --rounds 9
	$(BIN)/python benchmarks/bench_compare.py --tools assay
	$(BIN)/python benchmarks/bench_agreement.py
	$(BIN)/python benchmarks/bench_fusion.py --tools assay assay-stream
	$(BIN)/python benchmarks/bench_meta.py
	$(BIN)/python benchmarks/bench_tagging.py
	$(BIN)/python benchmarks/bench_letor.py
	$(BIN)/python benchmarks/bench_encode.py --sizes 2.5e5 1e6 --runs 5 --repeat 3
	$(BIN)/python benchmarks/bench_letor.py --queries 1250 --runs 3 --base 4cca8ea
	$(BIN)/python benchmarks/bench_embeddings.py
	$(BIN)/python benchmarks/bench_scale.py --sizes 1e5 1e6 --plot benchmarks/scale.png
	$(BIN)/python benchmarks/bench_diversity.py --repeat 1
	$(BIN)/python benchmarks/bench_diversity.py --files --sizes 1e5 1e6 --repeat 3 --ndeval $(NDEVAL)
	$(BIN)/python benchmarks/bench_pairwise.py --sizes 1e5 --rounds 200 --runs 3
	$(BIN)/python benchmarks/bench_small.py --runs 7 --phases
	$(BIN)/python benchmarks/bench_join.py

# ranx's compare takes about 11 minutes on 2 cores: run it on purpose only.
bench-full: bench
	$(BIN)/python benchmarks/bench_compare.py --tools assay ranx --runs 1
	$(BIN)/python benchmarks/bench_fusion.py --tools assay ranx --runs 1
	$(BIN)/python benchmarks/bench_scale.py --sizes 6.98e6 --variants plain --runs 2
	$(BIN)/python benchmarks/bench_scale.py --sizes 3.5e7 --variants plain --formats trec \
		--tools assay pytrec_eval --runs 1 --plot benchmarks/scale.png
	# trec_eval's source is on no package index: set $$TREC_EVAL (a binary) or $$TREC_EVAL_SRC.
	$(BIN)/python benchmarks/bench_prefs.py --sizes 1e5 1e6 --runs 3
	$(BIN)/python benchmarks/bench_pairwise.py --sizes 1e6 --rounds 1000 --runs 1

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks tools
	$(BIN)/ruff format --check src tests benchmarks tools
	$(BIN)/mypy

# The catalogue first (generated into docs/, checked in), then the site, strictly (every warning,
# broken link or missing reference fails) into site/; the API and CLI references are generated
# during the build by tools/docs_site.py (mkdocs.yml's hooks), never written to docs/.
# NO_MKDOCS_2_WARNING: Material's banner about MkDocs 2 and its successor, printed at every build.
docs: $(STAMP)
	$(BIN)/python -c "from assay.metrics.catalog import document; open('docs/metrics.md', 'w').write(document())"
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

clean:
	rm -rf $(VENV) $(RBO_VENV) .ndeval site .pytest_cache .mypy_cache .ruff_cache .hypothesis
