"""Shared by the stage-notebook tests: run a stage with papermill's own CLI (as a user types it) and check that a bad
parameter failed in the first code cell after the parameters, i.e. before any heavy work."""
import os, subprocess, sys
from pathlib import Path
import nbformat

ROOT = Path(__file__).resolve().parent.parent
STAGES = ROOT/'nbs'/'stages'
ENV = {**os.environ, 'PYTHONPATH': f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}", 'OMP_NUM_THREADS': '1',
       'MUJOCO_GL': os.environ.get('MUJOCO_GL', 'egl')}

def run_papermill(nb, out, *args, timeout=900, log_output=True)->subprocess.CompletedProcess:
    "papermill NB OUT ARGS... from the repo root (this checkout's package first on the path); output captured as text."
    cmd = [sys.executable, '-m', 'papermill', '--no-progress-bar', *(['--log-output'] if log_output else []), str(nb), str(out), *args]
    return subprocess.run(cmd, cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=timeout)

def check_cell_errors(out_nb)->tuple:
    "(indices of the code cells that raised, index of the first code cell after papermill's injected parameters) of an executed notebook."
    code = [c for c in nbformat.read(out_nb, 4).cells if c.cell_type == 'code']
    i = next(i for i, c in enumerate(code) if 'injected-parameters' in c.metadata.get('tags', []))
    return [k for k, c in enumerate(code) if any(o.get('output_type') == 'error' for o in c.get('outputs', []))], i + 1

def run_cli(*args, timeout=900)->subprocess.CompletedProcess:
    "`playworld ARGS...` (this checkout's package first on the path), output captured as text."
    return subprocess.run([sys.executable, '-m', 'playworld.app.cli', *map(str, args)], cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=timeout)

def without(m:dict, drop)->dict:
    "A copy of the metrics `m` without the dotted keys in `drop` (e.g. 'wall_s', 'fps.load_avg'; '*' for every item of a list)."
    import copy
    def pop(d, path):
        if isinstance(d, list) and path[0] == '*':
            for x in d: pop(x, path[1:])
        elif isinstance(d, dict) and len(path) == 1: d.pop(path[0], None)
        elif isinstance(d, dict) and path[0] in d: pop(d[path[0]], path[1:])
    m = copy.deepcopy(m)
    for k in drop: pop(m, k.split('.'))
    return m

def papermill_params(args)->dict:
    "Papermill's `-p NAME VALUE` / `-y 'NAME: VALUE'` arguments as the values a stage's parameters cell receives (papermill's own conversion of `-p`)."
    import yaml
    from papermill.cli import _resolve_type
    out, i = {}, 0
    while i < len(args):
        if args[i] == '-p': out[args[i + 1]] = _resolve_type(args[i + 2]); i += 3
        elif args[i] == '-y': out.update(yaml.safe_load(args[i + 1])); i += 2
        else: raise ValueError(f"expected -p NAME VALUE or -y YAML, got {args[i]!r}")
    return out

def refused(Params, args, expect, check=None)->str:
    """The error the stage's first cell raises for these papermill arguments, raised here in-process by the same call
    (`from_mapping(Params, ..., 'papermill')`, then `check(params)` when the stage checks its inputs too); asserts that
    it names every string in `expect` (a str or a list; exception class names are matched against its type)."""
    import pytest
    from playworld.config import from_mapping
    with pytest.raises((ValueError, FileNotFoundError)) as e:
        p = from_mapping(Params, papermill_params(args), 'papermill')
        if check: check(p)
    msg = f"{type(e.value).__name__}: {e.value}"
    for s in ([expect] if isinstance(expect, str) else expect): assert s in msg, f"{s!r} not in {msg!r}"
    return msg
