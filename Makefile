# Everything a fresh machine needs: Python 3 with pip and venv.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo test lint-self bench bench-runtime bench-lint bench-ledger clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]' --config-settings editable_mode=strict
	touch $(STAMP)

## demo: lint the bundled examples/ (a small agent codebase with mistakes on purpose)
demo: $(STAMP)
	$(PY) examples/runtime_demo.py
	$(VENV)/bin/smullyan lint examples/ || [ $$? -eq 1 ]  # 1 = findings, as intended here; 2 would be an error

## test: the whole suite, then mypy --strict over the runtime
test: $(STAMP)
	$(PY) -m pytest -q
	$(PY) -m mypy --strict -p smullyan.runtime

bench: bench-runtime bench-lint bench-ledger

bench-runtime: $(STAMP)
	$(PY) -m pip install --quiet -e '.[bench]' --config-settings editable_mode=strict
	$(PY) bench/bench_runtime.py

bench-ledger: $(STAMP)
	$(PY) bench/bench_ledger.py

bench-lint: $(STAMP)
	$(PY) -m pip install --quiet -e '.[bench]' --config-settings editable_mode=strict
	$(PY) bench/bench_lint.py

clean:
	rm -rf $(VENV) build *.egg-info .smullyan_cache .mypy_cache .pytest_cache .hypothesis

## reinstall: refresh the strict editable install after adding a module file
reinstall:
	flock /tmp/smullyan-pip.lock $(PY) -m pip install --quiet --no-deps -e . --config-settings editable_mode=strict
