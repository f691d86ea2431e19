# Everything a fresh machine needs: Python 3 with pip and venv.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo test lint-self bench bench-runtime bench-lint bench-ledger survey clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]' --config-settings editable_mode=strict
	touch $(STAMP)

## demo: lint the bundled examples/ (a small agent codebase with mistakes on purpose), then table its tools
demo: $(STAMP)
	$(PY) examples/runtime_demo.py
	$(VENV)/bin/smullyan lint examples/ || [ $$? -eq 1 ]  # 1 = findings, as intended here; 2 would be an error
	$(VENV)/bin/smullyan tools examples/

## test: the whole suite, the project's own code through its own linter, the import layers (lint-imports:
## contracts in pyproject.toml), then mypy --strict over the whole package
test: $(STAMP)
	$(PY) -m pytest -q
	$(MAKE) --no-print-directory lint-self
	$(VENV)/bin/lint-imports
	$(PY) -m mypy --strict -p smullyan

## lint-self: runtime/, linter/ and rules/ with every rule; any finding fails (justify one with `# noqa: CODE  reason`).
## The repository root is the `smullyan` package (package-dir in pyproject.toml), so the files are linted
## through a `smullyan` link: relative imports then resolve to smullyan.runtime..., as they do installed.
lint-self: $(STAMP)
	@tmp=$$(mktemp -d) && ln -s "$(CURDIR)" "$$tmp/smullyan" && \
	$(VENV)/bin/smullyan lint --no-cache --select TFH "$$tmp/smullyan/runtime" "$$tmp/smullyan/linter" "$$tmp/smullyan/rules"; \
	status=$$?; rm "$$tmp/smullyan"; rmdir "$$tmp"; exit $$status

bench: bench-runtime bench-lint bench-ledger

bench-runtime: $(STAMP)
	$(PY) -m pip install --quiet -e '.[bench]' --config-settings editable_mode=strict
	$(PY) bench/bench_runtime.py

bench-ledger: $(STAMP)
	$(PY) bench/bench_ledger.py

bench-lint: $(STAMP)
	$(PY) -m pip install --quiet -e '.[bench]' --config-settings editable_mode=strict
	$(PY) bench/bench_lint.py

## survey: the real-code survey (bench/survey.py): install the pinned corpus of bench/survey/corpus.toml
## into $$TMPDIR/smullyan-survey, lint both halves, merge bench/survey/labels/ (docs/real-code-survey.md)
survey: $(STAMP)
	$(PY) bench/survey.py $(SURVEY_ARGS)

clean:
	rm -rf $(VENV) build *.egg-info .smullyan_cache .mypy_cache .pytest_cache .hypothesis

## reinstall: refresh the strict editable install after adding a module file
reinstall:
	flock /tmp/smullyan-pip.lock $(PY) -m pip install --quiet --no-deps -e . --config-settings editable_mode=strict
