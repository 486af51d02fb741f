"""The library's import graph, read from the modules' `ast`: no cycle, no import that runs up the layer order, and no
`import_module` of our own code. Layers, lowest first (a module may import its own package and anything lower):

    core, assets, config  <-  envs, data  <-  wm  <-  play  <-  eval  <-  rl  <-  ui  <-  benchmarks  <-  studies  <-  app
"""
import ast
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parent.parent/'playworld'
LAYERS = [('core', 'assets', 'config'), ('envs', 'data'), ('wm',), ('play',), ('eval',), ('rl',), ('ui',), ('benchmarks',), ('studies',), ('app',)]
RANK = {p: i for i, ps in enumerate(LAYERS) for p in ps}

def modules(root:Path=ROOT)->dict:
    "module name -> source path of every module of the package (the generated `_modidx` aside)."
    out = {}
    for p in sorted(root.rglob('*.py')):
        if p.name == '_modidx.py': continue
        parts = ('playworld',) + p.relative_to(root).with_suffix('').parts
        out['.'.join(parts[:-1] if parts[-1] == '__init__' else parts)] = p
    return out

def imports(name:str, path:Path, root:Path=ROOT)->set:
    "The `playworld` modules that module `name` imports (absolute or relative, at any depth of its code)."
    pkg = name.split('.') if path.name == '__init__.py' else name.split('.')[:-1]
    got = set()
    for n in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(n, ast.Import): got |= {a.name for a in n.names if a.name.split('.')[0] == 'playworld'}
        elif isinstance(n, ast.ImportFrom):
            base = (pkg[:len(pkg) - n.level + 1] if n.level else []) + (n.module.split('.') if n.module else [])
            if base[:1] != ['playworld']: continue
            mod = '.'.join(base)
            for a in n.names:   # `from playworld.eval import judge` imports the module playworld.eval.judge
                sub = f'{mod}.{a.name}'
                got.add(sub if (root.parent/(sub.replace('.', '/').replace('playworld', root.name, 1) + '.py')).exists() else mod)
    return got

def graph(root:Path=ROOT)->dict:
    "module -> the set of `playworld` modules it imports (itself excluded)."
    ms = modules(root)
    return {m: {i for i in imports(m, p, root) if i != m} for m, p in ms.items()}

def layer(m:str)->int|None:
    "The layer of a module (None for the package itself)."
    parts = m.split('.')
    return RANK[parts[1]] if len(parts) > 1 else None

def upward_edges(g:dict)->list:
    "Imports from a lower layer to a higher one, and between two packages of one layer."
    bad = []
    for a, bs in g.items():
        for b in bs:
            la, lb = layer(a), layer(b)
            if la is None or lb is None: continue
            if lb > la or (lb == la and a.split('.')[1] != b.split('.')[1]): bad.append((a, b))
    return sorted(bad)

def cycles(g:dict)->list:
    "Strongly connected components with more than one module (Tarjan)."
    index, low, stack, on, out, i = {}, {}, [], set(), [], [0]
    def visit(v):
        index[v] = low[v] = i[0]; i[0] += 1; stack.append(v); on.add(v)
        for w in g.get(v, ()):
            if w not in index: visit(w); low[v] = min(low[v], low[w])
            elif w in on: low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v: break
            if len(comp) > 1: out.append(sorted(comp))
    for v in sorted(g):
        if v not in index: visit(v)
    return out

def test_every_package_has_a_layer():
    pkgs = {m.split('.')[1] for m in modules() if m.count('.') >= 1}
    assert pkgs <= set(RANK), f"packages without a layer: {sorted(pkgs - set(RANK))}"

def test_no_cycles():
    assert cycles(graph()) == []

def test_no_upward_imports():
    assert upward_edges(graph()) == []

def test_no_import_module_of_our_code():
    bad, names = [], set(modules())
    for m, p in modules().items():
        for n in ast.walk(ast.parse(p.read_text())):
            if isinstance(n, ast.Call) and getattr(n.func, 'attr', getattr(n.func, 'id', '')) in ('import_module', '__import__') \
                    and n.args and isinstance(n.args[0], ast.Constant) and str(n.args[0].value).startswith('playworld'):
                bad.append((m, n.args[0].value))
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value.startswith('playworld.') and (':' in n.value or n.value in names) \
                    and not n.value.startswith(('playworld.envs.',)):   # gymnasium entry points name env classes this way
                bad.append((m, n.value))
    assert bad == []

def test_the_check_catches_new_violations(tmp_path):
    "A fake package with an upward import and a cycle: both found."
    tmp_path = tmp_path/'playworld'
    for f, src in {'__init__.py': '', 'core.py': 'from .app import cli\n', 'app/__init__.py': '', 'app/cli.py': 'from ..core import x\n',
                   'wm/__init__.py': '', 'wm/model.py': 'from playworld.eval import judge\n', 'eval/__init__.py': '', 'eval/judge.py': ''}.items():
        (tmp_path/f).parent.mkdir(parents=True, exist_ok=True); (tmp_path/f).write_text(src)
    g = graph(tmp_path)
    assert ('playworld.core', 'playworld.app.cli') in upward_edges(g)
    assert ('playworld.wm.model', 'playworld.eval.judge') in upward_edges(g)
    assert cycles({'a': {'b'}, 'b': {'a'}, 'c': set()}) == [['a', 'b']]
