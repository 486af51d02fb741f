"""The test-time RL study with its smoke settings on the shipped world model, judge and BC policy, run twice: from its
stage notebook (nbs/stages/70_ttrl.ipynb) through papermill, and by `playworld experiment ttrl --profile smoke`
in-process: the metrics JSON has the counts asked for and rates inside their intervals, the figures exist, and the two
metrics are identical but for timings; bad parameters fail in the first cell after the parameters (with `--set`:
before any work) with a message naming them."""
import json, time
from pathlib import Path
import pytest

from _stages import ROOT, run_papermill, check_cell_errors, run_cli, without, refused
STAGE = ROOT/'nbs'/'stages'/'70_ttrl.ipynb'
SMOKE = dict(model='shipped', n_layouts=1, updates=1, group_size=2, rl_steps=8, n_real=2, n_imagined=2, max_steps=16)
# measured with the wall clock: not compared (the artefacts' folders are the shipped ones in both runs, so they are)
TIMING = ('config.seconds', 'layouts.*.seconds', 'layouts.*.after_rl_seconds', 'layouts.*.control_rl_seconds',
          'layouts.*.after_curve.*.time_s', 'layouts.*.control_curve.*.time_s')

def papermill(out, *args, timeout=300):
    return run_papermill(STAGE, out, *args, timeout=timeout)

def _args(d:dict)->list: return [x for k, v in d.items() for x in ('-p', k, str(v))]

def test_ttrl_stage_smoke(tmp_path):
    run = tmp_path/'run'
    r = papermill(tmp_path/'out.ipynb', '-p', 'out_dir', str(run), *_args(SMOKE))
    assert r.returncode == 0, r.stderr[-3000:]
    m = json.loads((run/'metrics'/'tabletop.ttrl.json').read_text())
    assert {'config', 'layouts', 'pooled', 'strip'} <= set(m)
    assert m['config']['layouts'] == [200000] and m['config']['method'] == 'dsrl' and m['config']['n_real'] == 2
    (lay,) = m['layouts']
    assert lay['seed'] == 200000 and lay['instruction'].startswith('lift the ')
    for a in ('before', 'after', 'control'):
        for kind, n in (('real', 2), ('imagined', 2)):
            r_ = lay[kind][a]
            assert r_['n'] == n and len(r_['success']) == n and r_['successes'] == sum(r_['success'])
            assert 0 <= r_['ci_low'] <= r_['rate'] <= r_['ci_high'] <= 1
        assert m['pooled']['real'][a]['n'] == 2
    assert len(lay['after_curve']) == 1 and lay['after_curve'][0]['rollouts'] == 2
    for a in ('after', 'control'):
        c = m['pooled']['change'][a]
        assert c['ci_low'] <= c['change'] <= c['ci_high'] and c['n_layouts'] == 1
        assert abs(c['change'] - (m['pooled']['real'][a]['rate'] - m['pooled']['real']['before']['rate'])) < 1e-9
    for f in ('ttrl.png', 'ttrl_strip.png', 'ttrl_strip_imagined.png'): assert (run/'figures'/f).stat().st_size > 200, f
    from playworld.studies.testtime import section, Params
    assert Params.PRESETS['smoke'] == SMOKE   # the profile runs what the papermill run above did
    h = section(m, run)
    assert h.startswith('<h2>') and h.count('data:image/png;base64') == 2 and 'missing figure' not in h
    r = run_cli('experiment', 'ttrl', '--profile', 'smoke', '--out', tmp_path/'cli')
    assert r.returncode == 0, r.stderr[-3000:]
    c = json.loads((tmp_path/'cli'/'metrics'/'tabletop.ttrl.json').read_text())
    assert without(c, TIMING) == without(m, TIMING)
    assert c['config']['seconds'] > 0 and all(c['layouts'][0][k] > 0 for k in ('seconds', 'after_rl_seconds', 'control_rl_seconds'))
    for f in ('ttrl.png', 'ttrl_strip.png', 'ttrl_strip_imagined.png'): assert (tmp_path/'cli'/'figures'/f).stat().st_size > 200, f
    h = section(c, tmp_path/'cli')
    assert h.startswith('<h2>') and h.count('data:image/png;base64') == 2 and 'missing figure' not in h
    assert '<h2>Test-time RL' in (tmp_path/'cli'/'report.html').read_text()
    assert json.loads((tmp_path/'cli'/'metrics.json').read_text())['tabletop']['ttrl']['pooled'] == m['pooled']

BAD = [  # (papermill args, what the message must name): through papermill
    (['-p', 'group_size', '1'], ['ValueError', 'group_size=1']),
]
NAMED = [  # the rest, through the stage's first call (`from_mapping(Params, ..., 'papermill')`) in-process
    (['-p', 'first_layout', '90000'], ['ValueError', 'first_layout=90000', 'not fresh']),
    (['-p', 'method', 'ppo'], ['ValueError', "method='ppo'"]),
]

@pytest.mark.parametrize('args,expect', NAMED, ids=[b[0][1] for b in NAMED])
def test_ttrl_bad_parameters_named(args, expect):
    from playworld.studies.testtime import Params
    refused(Params, ['-p', 'model', 'shipped', *args], expect)

@pytest.mark.parametrize('args,expect', BAD, ids=[b[0][1] for b in BAD])
def test_ttrl_stage_bad_parameter(args, expect, tmp_path):
    t0 = time.time()
    r = papermill(tmp_path/'out.ipynb', '-p', 'out_dir', str(tmp_path/'run'), '-p', 'model', 'shipped', *args)
    assert r.returncode != 0, r.stdout[-2000:]
    for e in expect: assert e in r.stderr, f"{e!r} not in papermill's message:\n{r.stderr[-3000:]}"
    errs, first = check_cell_errors(tmp_path/'out.ipynb')
    assert errs == [first], f"the error must come from the first code cell after the parameters: {errs} vs {first}"
    # wall time is measured by the benchmarks (bench/), not asserted here: it depends on the CPU (emulated bf16 on AVX2-only CPUs is ~2x slower)

def test_ttrl_experiment_bad_setting(tmp_path):
    "`--set` goes through the study's Params: a bad value fails before any work, naming the setting."
    r = run_cli('experiment', 'ttrl', '--profile', 'smoke', '--set', 'ttrl.first_layout=90000', '--out', tmp_path/'cli', timeout=120)
    assert r.returncode != 0 and 'first_layout=90000' in r.stderr and 'not fresh' in r.stderr, r.stderr[-2000:]
    assert not (tmp_path/'cli'/'metrics').exists()
