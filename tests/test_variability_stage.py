"""The variability study with its smoke preset (on the stored held-out play episodes), run twice: from its stage notebook
(nbs/stages/80_variability.ipynb) through papermill, and by `playworld experiment variability --profile smoke` in-process:
the JSON keys and values (counts as asked, rates inside their Wilson intervals, every pass on the same real rollouts),
the PNG figure, the report section, the two metrics identical but for timings; and bad parameters fail before any heavy
work with a message naming them."""
import json, sys, time
from pathlib import Path
import pytest

from _stages import ROOT, run_papermill, check_cell_errors, run_cli, without, refused
STAGE = ROOT/'nbs'/'stages'/'80_variability.ipynb'
DATA = 'data_samples/tabletop_heldout'   # the training seeds' play data (the smoke preset would collect fresh play episodes)
# measured with the wall clock: not compared between the two runs
TIMING = ('timing', 'passes.*.seconds', 'train.0.train_seconds', 'train.1.train_seconds')

def smoke_params()->dict:
    from playworld.studies.variability import Params
    return dict(Params.PRESETS['smoke'], data_dir=DATA)

def papermill(out, params:dict, timeout=240):
    args = [a for k, v in params.items() for a in (('-y', f'{k}: {json.dumps(v)}') if isinstance(v, list) else ('-p', k, str(v)))]
    return run_papermill(STAGE, out, *args, timeout=timeout)

def test_smoke_stage(tmp_path):
    t0 = time.time()
    SMOKE = smoke_params()
    r = papermill(tmp_path/'out.ipynb', dict(SMOKE, out_dir=str(tmp_path/'run')))
    assert r.returncode == 0, r.stderr[-3000:]
    m = json.loads((tmp_path/'run'/'metrics'/'tabletop.variability.json').read_text())
    assert {'policies', 'n_episodes', 'per_policy', 'metrics', 'passes', 'timing', 'config', 'train'} <= set(m)
    assert m['policies'] == SMOKE['policies'] and m['n_episodes'] == 1
    assert (m['n_sample_seeds'], m['n_train_seeds'], m['n_train_sample_seeds']) == (2, 2, 1)
    assert len(m['passes']) == 2 + 2 * 1
    assert [p['kind'] for p in m['passes']] == ['sampling'] * 2 + ['training'] * 2
    assert len({p['sample_seed'] for p in m['passes'] if p['kind'] == 'sampling'}) == 2       # distinct sampling seeds
    for p in m['passes']: assert [len(row) for row in p['pred']] == [1, 1] and set(sum(p['pred'], [])) <= {0, 1}
    for q in m['per_policy']:
        assert 0 <= q['real_ci'][0] <= q['real'] <= q['real_ci'][1] <= 1
        for k in ('sampling', 'training', 'all'): assert 0 <= q[k]['min'] <= q[k]['mean'] <= q[k]['max'] <= 1
        assert q['sampling']['n'] == 2 and q['training']['n'] == 2 and q['all']['n'] == 4
    for k in ('pearson', 'spearman', 'mmrv'):
        assert {'reference', 'reference_ci', 'sampling', 'training', 'components', 'pooled'} <= set(m['metrics'][k])
    ref = m['metrics']['mmrv']['reference']   # None when every real rate is equal (nothing to rank), with the reason
    assert (ref is None and 'real rates are' in m['metrics']['mmrv']['reference_reason']) or 0 <= ref <= 1, ref
    assert ref == m['passes'][0]['mmrv']
    assert {s: r['steps'] for s, r in m['train'].items()} == {'0': 1, '1': 1}
    assert (tmp_path/'run'/'figures'/'variability.png').read_bytes()[:4] == b'\x89PNG'
    assert sorted(p.name for p in (tmp_path/'run'/'variability'/'models'/'seed0').iterdir()) == ['model', 'run.json', 'train_history.json']
    sys.path.insert(0, str(ROOT))
    from playworld.studies.variability import variability_section
    html = variability_section(m, tmp_path/'run')
    assert html.startswith('<h2>') and 'expert-v0' in html and 'data:image/png;base64,' in html
    print(f"smoke stage: {time.time() - t0:.1f} s")
    r = run_cli('experiment', 'variability', '--profile', 'smoke', '--set', f'variability.data_dir={DATA}', '--out', tmp_path/'cli')
    assert r.returncode == 0, r.stderr[-3000:]
    c = json.loads((tmp_path/'cli'/'metrics'/'tabletop.variability.json').read_text())
    assert without(c, TIMING) == without(m, TIMING)
    assert c['config']['data'] == DATA and (tmp_path/'cli'/'variability'/'models'/'seed1'/'model').is_dir()
    assert '<h2>' in (tmp_path/'cli'/'report.html').read_text()
    assert json.loads((tmp_path/'cli'/'metrics.json').read_text())['tabletop']['variability']['per_policy'] == m['per_policy']
    print(f"smoke stage and CLI: {time.time() - t0:.1f} s")

BAD = [('sample_seeds', 1, ['ValueError', 'sample_seeds=1']),            # through papermill
       ('data_dir', '{tmp}/no-store', ['FileNotFoundError', '{tmp}/no-store', 'data_dir'])]
NAMED = [('train_seeds', 1, ['ValueError', 'train_seeds=1']),           # through the stage's first call, in-process
         ('init', 'warm', ['ValueError', "init='warm'"]),
         ('policies', ['expert-v0', 'nope'], ['ValueError', "policies=['expert-v0', 'nope']"])]

@pytest.mark.parametrize('name,value,expect', NAMED, ids=[b[0] for b in NAMED])
def test_bad_parameter_named(name, value, expect):
    from playworld.studies.variability import Params
    args = [a for k, v in dict(model='shipped', **{name: value}).items() for a in (('-y', f'{k}: {json.dumps(v)}') if isinstance(v, list) else ('-p', k, str(v)))]
    refused(Params, args, expect)

@pytest.mark.parametrize('name,value,expect', BAD, ids=[b[0] for b in BAD])
def test_bad_parameter_fails_clearly(name, value, expect, tmp_path):
    import nbformat
    v = value.format(tmp=tmp_path) if isinstance(value, str) else value
    r = papermill(tmp_path/'out.ipynb', {'out_dir': str(tmp_path/'run'), 'model': 'shipped', name: v}, timeout=120)
    assert r.returncode != 0
    for e in expect: assert e.format(tmp=tmp_path) in r.stderr, f"{e!r} not in papermill's message:\n{r.stderr[-3000:]}"
    errs, first = check_cell_errors(tmp_path/'out.ipynb')
    assert errs == [first], f"the error must come from the first code cell after the parameters: {errs} vs {first}"

def test_missing_model_names_the_parameter(tmp_path):
    r = papermill(tmp_path/'out.ipynb', dict(out_dir=str(tmp_path/'empty-run')), timeout=120)
    assert r.returncode != 0 and 'FileNotFoundError' in r.stderr
    assert str(tmp_path/'empty-run'/'models'/'tabletop'/'model') in r.stderr and "model='shipped'" in r.stderr

def test_experiment_bad_setting(tmp_path):
    "`--set` goes through the study's Params: a bad value fails before any work, naming the setting."
    r = run_cli('experiment', 'variability', '--profile', 'smoke', '--set', 'variability.sample_seeds=1', '--out', tmp_path/'cli', timeout=120)
    assert r.returncode != 0 and 'sample_seeds=1' in r.stderr, r.stderr[-2000:]
    assert not (tmp_path/'cli'/'variability').exists()
