"""Shared by the stage-notebook tests: run a stage with papermill's own CLI (as a user types it) and check that a bad
parameter failed in the first code cell after the parameters, i.e. before any heavy work."""
import os, subprocess, sys
from pathlib import Path
import nbformat

ROOT = Path(__file__).resolve().parent.parent
STAGES = ROOT/'nbs'/'stages'
ENV = {**os.environ, 'PYTHONPATH': f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}", 'OMP_NUM_THREADS': '1',
       'MUJOCO_GL': os.environ.get('MUJOCO_GL', 'egl')}

def run_papermill(nb, out, *args, timeout=300, log_output=True)->subprocess.CompletedProcess:
    "papermill NB OUT ARGS... from the repo root (this checkout's package first on the path); output captured as text."
    cmd = [sys.executable, '-m', 'papermill', '--no-progress-bar', *(['--log-output'] if log_output else []), str(nb), str(out), *args]
    return subprocess.run(cmd, cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=timeout)

def check_cell_errors(out_nb)->tuple:
    "(indices of the code cells that raised, index of the first code cell after papermill's injected parameters) of an executed notebook."
    code = [c for c in nbformat.read(out_nb, 4).cells if c.cell_type == 'code']
    i = next(i for i, c in enumerate(code) if 'injected-parameters' in c.metadata.get('tags', []))
    return [k for k, c in enumerate(code) if any(o.get('output_type') == 'error' for o in c.get('outputs', []))], i + 1
