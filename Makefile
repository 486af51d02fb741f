# PlayWorld Workbench — the two commands: `make demo` (the main job) and `make test` (the test suite).
# Both set everything up first (system libraries, .venv, CPU torch, the package) and are idempotent.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
OUT    ?= runs/quick
PROFILE ?= quick
# extra pip arguments for torch, e.g. a CPU-only package index on a machine whose default index serves a CUDA build
TORCH_PIP_ARGS ?=

.PHONY: setup sysdeps demo smoke test sync-check readme lab clean
setup: sysdeps $(STAMP)

sysdeps:
	@bash tools/sysdeps.sh

$(STAMP): setup.py settings.ini pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q torch==2.13.0 $(TORCH_PIP_ARGS)
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

demo: setup            ## the main job: collect -> train -> replay -> report (~15 min on 2 cores)
	MUJOCO_GL=$${MUJOCO_GL:-egl} $(BIN)/playworld run --profile $(PROFILE) --out $(OUT)

smoke: setup           ## every stage at toy size (~3 min on 2 cores)
	MUJOCO_GL=$${MUJOCO_GL:-egl} $(BIN)/playworld run --profile smoke --out runs/smoke --force

test: setup sync-check ## notebooks' tests + tests/ (papermill smoke run, CLI, README)
	MUJOCO_GL=$${MUJOCO_GL:-egl} $(BIN)/python -m pytest -q -n 2 --dist loadfile --durations=15 tests/   # two workers, each file whole on one worker (its fixtures built once); the stage tests run single-threaded subprocesses

sync-check:            ## fail when nbdev-export / nbdev-clean would change a tracked file
	@bash tools/sync_check.sh

lab: setup             ## JupyterLab on nbs/ (127.0.0.1, a token; widgets work; LAB_PORT=8888): start with tour.ipynb
	@BIN=$(BIN) bash tools/lab.sh

readme:                ## README.md from nbs/index.ipynb
	$(BIN)/python tools/make_readme.py

clean:
	rm -rf $(VENV) runs
