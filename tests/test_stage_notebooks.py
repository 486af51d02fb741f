"""Every stage notebook runs alone with papermill: its `parameters` cell documents each parameter (name: type = default
# meaning, unit), a missing input fails in the first cell after the parameters with a message naming the path and the
parameter to set; the train stage alone trains on the shipped held-out episodes and the evaluate stage alone replays
that model (papermill's own CLI, as a user types it)."""
import ast, json, time
from pathlib import Path
import nbformat, pytest

from _stages import ROOT, STAGES, run_papermill, check_cell_errors
NBS = sorted(STAGES.glob('*.ipynb'))

def papermill(nb, out, *args, timeout=180):
    return run_papermill(nb, out, *args, timeout=timeout)

def test_stages_found():
    assert {p.name for p in NBS} >= {'10_collect.ipynb', '20_train.ipynb', '30_evaluate.ipynb', '90_report.ipynb'}, NBS

@pytest.mark.parametrize('nb', NBS, ids=[p.stem for p in NBS])
def test_parameters_documented(nb):
    "One `parameters` cell; every line `name: type = default  # meaning, unit` (a comment on every parameter)."
    cells = [c for c in nbformat.read(nb, 4).cells if 'parameters' in c.metadata.get('tags', [])]
    assert len(cells) == 1, f"{nb.name}: {len(cells)} cells tagged 'parameters'"
    src = cells[0].source
    lines = src.splitlines()
    for st in ast.parse(src).body:
        assert isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.value is not None, \
            f"{nb.name}: `{ast.unparse(st)}` is not `name: type = default`"
        comment = lines[st.lineno - 1].partition('#')[2].strip()
        assert len(comment) > 10, f"{nb.name}: parameter {st.target.id} has no comment (meaning, unit)"
        ast.literal_eval(st.value)   # the default is a literal papermill can override
    # papermill's own parser reads every parameter (a comment with '=' in it defeats its regex: 'Passed unknown parameter')
    import papermill
    names = {st.target.id for st in ast.parse(src).body}
    assert set(papermill.inspect_notebook(str(nb))) == names, (nb.name, names - set(papermill.inspect_notebook(str(nb))))

MISSING = [  # (stage, papermill args, what the message must name)
    ('10_collect', ['-p', 'bridge_src', '{tmp}/no-such-bridge'], ['FileNotFoundError', '{tmp}/no-such-bridge', 'bridge_src']),
    ('20_train', ['-p', 'data_dir', '{tmp}/no-such-store'], ['FileNotFoundError', '{tmp}/no-such-store', 'data_dir']),
    ('20_train', ['-p', 'out_dir', '{tmp}/empty-run'], ['FileNotFoundError', '{tmp}/empty-run/data/tabletop', 'out_dir']),
    ('30_evaluate', ['-p', 'out_dir', '{tmp}/empty-run'], ['FileNotFoundError', '{tmp}/empty-run/models/tabletop', 'out_dir']),
    ('90_report', ['-p', 'out_dir', '{tmp}/empty-run'], ['FileNotFoundError', '{tmp}/empty-run/metrics', 'out_dir']),
    ('35_study_data', ['-p', 'out_dir', '{tmp}/empty-run'], ['FileNotFoundError', '{tmp}/empty-run/data/tabletop', 'play_dir', 'out_dir']),
    ('35_study_data', ['-p', 'out_dir', '{tmp}/empty-run', '-p', 'play_dir', 'data_samples/tabletop_heldout', '-p', 'demo_dir',
                       'data_samples/tabletop_heldout', '-y', 'budgets: [0]'], ['ValueError', 'budgets=[0]']),
    ('40_study_evaluate', ['-p', 'out_dir', '{tmp}/empty-run'], ['FileNotFoundError', '{tmp}/empty-run/models', 'out_dir', 'main_model']),
    ('50_rl', ['-p', 'out_dir', '{tmp}/empty-run', '-p', 'model', 'tabletop'], ['FileNotFoundError', '{tmp}/empty-run/models/tabletop/model', 'out_dir', "model='shipped'"]),
    ('50_rl', ['-p', 'out_dir', '{tmp}/empty-run', '-y', 'families: [fly]'], ['ValueError', "families=['fly']"]),
    ('50_rl', ['-p', 'out_dir', '{tmp}/empty-run', '-p', 'group_size', '1'], ['ValueError', 'group_size=1']),
]

@pytest.mark.parametrize('stage,args,expect', MISSING, ids=[f'{m[0]}-{m[1][1]}-{m[1][-1]}' for m in MISSING])
def test_missing_input_fails_clearly(stage, args, expect, tmp_path):
    t0 = time.time()
    r = papermill(STAGES/f'{stage}.ipynb', tmp_path/'out.ipynb', *[a.format(tmp=tmp_path) for a in args])
    assert r.returncode != 0, r.stdout[-2000:]
    for e in expect: assert e.format(tmp=tmp_path) in r.stderr, f"{e!r} not in papermill's message:\n{r.stderr[-3000:]}"
    # it failed in the first cell after the parameters (and papermill's injected) cell: before any heavy work
    errs, first = check_cell_errors(tmp_path/'out.ipynb')
    assert errs == [first], f"the error must come from the first code cell after the parameters: {errs} vs {first}"
    # wall time is measured by the benchmarks (bench/), not asserted here: it depends on the CPU (emulated bf16 on AVX2-only CPUs is ~2x slower)

def test_train_then_evaluate_stage_alone(tmp_path):
    "The train stage alone on the shipped held-out episodes (12, 64 px): 2 steps of a tiny UNet; then evaluate alone."
    t0 = time.time()
    r = papermill(STAGES/'20_train.ipynb', tmp_path/'out.ipynb', '-p', 'data_dir', 'data_samples/tabletop_heldout',
                  '-p', 'out_dir', str(tmp_path/'run'), '-p', 'steps', '2', '-p', 'batch_size', '2', '-p', 'bf16', 'False',
                  '-y', 'block_out_channels: [8, 16]')
    assert r.returncode == 0, r.stderr[-3000:]
    m = tmp_path/'run'/'models'/'tabletop'
    assert (m/'model').is_dir() and (m/'split.json').exists()
    split = json.loads((m/'split.json').read_text())
    assert split['data'] == str((ROOT/'data_samples'/'tabletop_heldout').resolve())
    assert len(split['train']) + len(split['val']) == 12 and len(split['val']) == 3     # val_frac 0.25 of 12 episodes
    assert json.loads((m/'train_history.json').read_text())['steps'] == 2
    t1 = time.time()
    # then the evaluate stage alone on that run: it finds the episodes through the split.json the train stage wrote
    r = papermill(STAGES/'30_evaluate.ipynb', tmp_path/'eval.ipynb', '-p', 'out_dir', str(tmp_path/'run'),
                  '-p', 'stride', '16', '-y', 'horizons: [1, 4]')
    assert r.returncode == 0, r.stderr[-3000:]
    met = json.loads((tmp_path/'run'/'metrics'/'tabletop.json').read_text())
    assert met['held_out_episodes'] == 3 and met['train_steps'] == 2 and set(met['replay']['psnr']) == {'1', '4'}
    print(f"train stage alone: {t1 - t0:.1f} s; evaluate stage alone: {time.time() - t1:.1f} s")
