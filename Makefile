# Everything a fresh machine needs: Python 3 with pip and venv.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
LINT_STAMP := $(VENV)/.installed-lint
# setuptools' strict editable install (only the declared packages, as in the wheel) always prints an
# informational box about its build/__editable__ link tree; this filters that one note (its message
# starts "Editable installation."), every other warning of pip or the build still shows.
NO_EDITABLE_NOTE := PYTHONWARNINGS="ignore:Editable installation.:UserWarning$${PYTHONWARNINGS:+,$$PYTHONWARNINGS}"
EDITABLE := $(NO_EDITABLE_NOTE) $(PY) -m pip install --quiet --config-settings editable_mode=strict -e
# pytest-xdist workers: one per core (`auto`); PYTEST_WORKERS=0 runs the suite in one process
PYTEST_WORKERS ?= auto
# what `make test` runs: everything but the slow group (`make test-all`, and CI, run it all)
TESTS ?= -m "not slow"

.PHONY: demo test test-all test-slow lint-self bench bench-runtime bench-lint bench-ledger survey clean reinstall

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# the demo needs only the linter's extra (libcst, pyyaml); the test extra is a superset
$(LINT_STAMP): pyproject.toml | $(PY)
	$(EDITABLE) '.[lint]'
	touch $@

$(STAMP): pyproject.toml | $(PY)
	$(EDITABLE) '.[test]'
	touch $@ $(LINT_STAMP)

## demo: lint the bundled examples/ (a small agent codebase with mistakes on purpose), then table its tools
demo: $(LINT_STAMP)
	$(PY) examples/runtime_demo.py
	$(VENV)/bin/smullyan lint examples/ || [ $$? -eq 1 ]  # 1 = findings, as intended here; 2 would be an error
	$(VENV)/bin/smullyan tools examples/

## test: the suite less its slow group on one pytest-xdist worker per core, the project's own code
## through its own linter, the import layers (lint-imports: contracts in pyproject.toml), then mypy --strict
## over the whole package
test: $(STAMP)
	$(PY) -m pytest -q -n $(PYTEST_WORKERS) $(TESTS)
	$(MAKE) --no-print-directory lint-self
	$(VENV)/bin/lint-imports
	$(PY) -m mypy --strict -p smullyan

## test-all: `make test` with the slow group too, in the same pytest run (what CI runs)
test-all:
	$(MAKE) --no-print-directory test TESTS=

## test-slow: only the slow group (packaging, pre-commit, the mypy runs)
test-slow: $(STAMP)
	$(PY) -m pytest -q -n $(PYTEST_WORKERS) -m slow

## lint-self: runtime/, linter/ and rules/ with every rule; any finding fails (justify one with `# noqa: CODE  reason`).
## The repository root is the `smullyan` package (package-dir in pyproject.toml), so the files are linted
## through a `smullyan` link: relative imports then resolve to smullyan.runtime..., as they do installed.
lint-self: $(STAMP)
	@tmp=$$(mktemp -d) && ln -s "$(CURDIR)" "$$tmp/smullyan" && \
	$(VENV)/bin/smullyan lint --no-cache --select TFH "$$tmp/smullyan/runtime" "$$tmp/smullyan/linter" "$$tmp/smullyan/rules"; \
	status=$$?; rm "$$tmp/smullyan"; rmdir "$$tmp"; exit $$status

bench: bench-runtime bench-lint bench-ledger

bench-runtime: $(STAMP)
	$(EDITABLE) '.[bench]'
	$(PY) bench/bench_runtime.py

bench-ledger: $(STAMP)
	$(PY) bench/bench_ledger.py

bench-lint: $(STAMP)
	$(EDITABLE) '.[bench]'
	$(PY) bench/bench_lint.py

## survey: the real-code survey (bench/survey.py): install the pinned corpus of bench/survey/corpus.toml
## into $$TMPDIR/smullyan-survey, lint both halves, merge bench/survey/labels/ (docs/real-code-survey.md)
survey: $(STAMP)
	$(PY) bench/survey.py $(SURVEY_ARGS)

clean:
	rm -rf $(VENV) build *.egg-info .smullyan_cache .mypy_cache .pytest_cache .hypothesis

## reinstall: refresh the strict editable install after adding a module file
reinstall:
	$(NO_EDITABLE_NOTE) flock /tmp/smullyan-pip.lock $(PY) -m pip install --quiet --no-deps -e . --config-settings editable_mode=strict
