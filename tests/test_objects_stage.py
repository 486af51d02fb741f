"""The object-generalization study runs with its smoke parameters on the shipped world model twice: from its stage
notebook (nbs/stages/60_objects.ipynb) through papermill and by `playworld experiment objects --profile smoke`
in-process, the two metrics identical but for timings; it writes tabletop.objects.json with intervals around every mean and the frame budget met
exactly, draws its figures, and fails on bad parameters in the first cell after the parameters, naming them."""
import json, time
from pathlib import Path
import pytest

from _stages import ROOT, run_papermill, check_cell_errors, run_cli, without, refused
STAGE = ROOT/'nbs'/'stages'/'60_objects.ipynb'
TIMING = ('wall_s', 'points.*.train_s')   # wall-clock times: not compared between the two runs
SMOKE = ['-y', 'k_values: [1, 3]', '-p', 'frame_budget', '120', '-p', 'episodes_per_scene', '2', '-p', 'max_steps', '20',
         '-p', 'steps', '2', '-p', 'batch_size', '4', '-p', 'n_eval', '2', '-y', 'horizons: [4, 8]']

def papermill(out, *args, timeout=900):
    return run_papermill(STAGE, out, *args, timeout=timeout)

def test_objects_stage_smoke(tmp_path):
    t0 = time.time()
    run = tmp_path/'run'
    r = papermill(tmp_path/'out.ipynb', '-p', 'out_dir', str(run), '-p', 'model', 'shipped', *SMOKE)
    assert r.returncode == 0, r.stderr[-3000:]
    m = json.loads((run/'metrics'/'tabletop.objects.json').read_text())
    assert set(m) >= {'points', 'horizons', 'config', 'objects', 'wall_s'}
    assert m['horizons'] == [4, 8] and len(m['objects']['train']) == 12 and len(m['objects']['heldout']) == 4
    assert [p['k'] for p in m['points']] == [3, 1, 3] and [p['model'] for p in m['points']] == ['base', 'fine-tuned', 'fine-tuned']
    for p in m['points']:
        if p['model'] != 'base':
            assert p['frames'] == 120 and p['train_steps'] == 2       # the same frame budget and steps for every k
            assert set(p['heldout_vs_base']) == {'4', '8'}
        for s in ('heldout', 'seen'):
            for h in ('4', '8'):
                d = p[s]['psnr'][h]
                assert 1 <= d['episodes'] <= 2 and 5 < d['mean'] < 100 and d['ci'][0] <= d['mean'] <= d['ci'][1], (s, h, d)
                g = p[s]['gain_copy_last'][h]
                assert abs(g['mean'] - (d['mean'] - p[s]['psnr_copy_last'][h]['mean'])) < 1e-6
                assert 0 < p[s]['ssim'][h]['mean'] <= 1
    for f in ('objects_psnr.png', 'objects_strip.png'): assert (run/'figures'/f).stat().st_size > 1000
    assert (run/'objects'/'k1'/'wm'/'model'/'config.json').exists()
    from playworld.studies.objects import objects_section
    h = objects_section(m, run)
    assert h.startswith('<h2>') and h.count('data:image/png;base64,') == 2 and h.count('<tr>') == 4
    # wall time is measured by the benchmarks (bench/), not asserted here: it depends on the CPU (emulated bf16 on AVX2-only CPUs is ~2x slower)
    r = run_cli('experiment', 'objects', '--profile', 'smoke', '--out', tmp_path/'cli')
    assert r.returncode == 0, r.stderr[-3000:]
    c = json.loads((tmp_path/'cli'/'metrics'/'tabletop.objects.json').read_text())
    assert without(c, TIMING) == without(m, TIMING)
    assert '<h2>' in (tmp_path/'cli'/'report.html').read_text()

BAD = [  # (papermill args, what the message must name): through papermill
    (['-y', 'k_values: [0, 3]'], ['ValueError', 'k_values=[0, 3]']),
    (['-p', 'model', 'tabletop'], ['FileNotFoundError', 'models/tabletop/model', "model='shipped'"]),
]
NAMED = [  # the rest, through the stage's first call (`from_mapping(Params, ..., 'papermill')`) in-process
    (['-p', 'n_eval', '1'], ['ValueError', 'n_eval=1']),
    (['-y', 'horizons: [8, 60]'], ['ValueError', 'horizons=[8, 60]', 'max_steps']),
]

@pytest.mark.parametrize('args,expect', NAMED, ids=[a[-1] for a, _ in NAMED])
def test_objects_bad_parameters_named(args, expect):
    from playworld.studies.objects import Params
    refused(Params, args, expect)

@pytest.mark.parametrize('args,expect', BAD, ids=[a[-1] for a, _ in BAD])
def test_objects_stage_bad_parameters(args, expect, tmp_path):
    r = papermill(tmp_path/'out.ipynb', '-p', 'out_dir', str(tmp_path/'run'), *args)
    assert r.returncode != 0, r.stdout[-2000:]
    for e in expect: assert e in r.stderr, f"{e!r} not in papermill's message:\n{r.stderr[-3000:]}"
    errs, first = check_cell_errors(tmp_path/'out.ipynb')
    assert errs == [first], f"the error must come from the first code cell after the parameters: {errs} vs {first}"
