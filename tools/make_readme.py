"Write README.md from nbs/index.ipynb (markdown cells as they are, code cells as python blocks). `--check` fails if stale."
import json, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

def render() -> str:
    nb = json.loads((ROOT/'nbs'/'index.ipynb').read_text())
    parts = []
    for c in nb['cells']:
        src = ''.join(c['source']).strip()
        if not src: continue
        parts.append(src if c['cell_type'] == 'markdown' else f'```python\n{src}\n```')
    return '<!-- generated from nbs/index.ipynb by `make readme`: edit the notebook -->\n\n' + '\n\n'.join(parts) + '\n'

if __name__ == '__main__':
    txt = render()
    if '--check' in sys.argv:
        ok = (ROOT/'README.md').exists() and (ROOT/'README.md').read_text() == txt
        print('README.md is ' + ('in step with' if ok else 'STALE: run `make readme` after editing') + ' nbs/index.ipynb')
        sys.exit(0 if ok else 1)
    (ROOT/'README.md').write_text(txt)
