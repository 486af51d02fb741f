"Run every library notebook's tests (nbdev's own runner), one pytest test per notebook."
from pathlib import Path
import pytest
from nbdev.config import get_config
from nbdev.test import test_nb as run_notebook_tests

ROOT = Path(__file__).resolve().parent.parent
NBS = sorted(p for p in (ROOT/'nbs').rglob('*.ipynb')
             if not any((d/'.notest').exists() for d in p.parents if ROOT/'nbs' in (d, *d.parents))
             and '.ipynb_checkpoints' not in p.parts)
SKIP = get_config(ROOT).tst_flags.split()   # 'notest slow gpu'; PLAYWORLD_TEST_FLAGS='slow' runs the slow cells too
FORCE = __import__('os').environ.get('PLAYWORLD_TEST_FLAGS', '').split()

def test_notebooks_found():
    assert len(NBS) >= 5, NBS

@pytest.mark.parametrize('nb', NBS, ids=[p.stem for p in NBS])
def test_notebook(nb, monkeypatch):
    monkeypatch.chdir(nb.parent)
    ok, secs = run_notebook_tests(nb, skip_flags=SKIP, force_flags=FORCE, basepath=str(ROOT))
    assert ok, f"{nb.name} failed (its traceback is printed above)"
