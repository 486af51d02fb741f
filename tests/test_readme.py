"The README is the index notebook, and its two commands are what CI runs."
import subprocess, sys
from pathlib import Path
ROOT = Path(__file__).resolve().parent.parent

def test_readme_in_step_with_index_notebook():
    p = subprocess.run([sys.executable, str(ROOT/'tools'/'make_readme.py'), '--check'], capture_output=True, text=True)
    assert p.returncode == 0, p.stdout

def test_readme_commands_and_ci():
    readme = (ROOT/'README.md').read_text()
    assert 'make demo' in readme and 'make test' in readme
    assert 'make test' in (ROOT/'.ci'/'run').read_text()
    mk = (ROOT/'Makefile').read_text()
    assert 'torch==2.13.0' in mk and 'playworld run --profile $(PROFILE)' in mk
