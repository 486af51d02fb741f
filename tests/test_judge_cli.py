"""The judge's data and its evaluation from the command line: `collect --mode judge` resumes to the same attempts,
`evaluate judge` reports what `evaluate_judge` computes, and bad arguments exit 2 naming the value."""
import json
import numpy as np
import pytest
from playworld.app.cli import main
from playworld.data.store import EpisodeStore
from playworld.eval.judge import load_judge, judge_items, evaluate_judge, judge_stream
from playworld.assets import default_judge


def pw(*args, check=True): # run `playworld ARGS` in this process (the console script calls the same `main`); its exit status
    rc = main([str(a) for a in args])
    if check: assert rc == 0, args
    return rc

@pytest.fixture(scope='session')   # built once per run (make test sends each file whole to one worker)
def store(tmp_path_factory):
    d = tmp_path_factory.mktemp('judge') / 'attempts'
    pw('collect', '--mode', 'judge', '--cameras', 'top', '--episodes', 6, '--out', d, '--seed', 4, '--max-steps', 8, '--quiet')   # top only
    pw('collect', '--mode', 'judge', '--cameras', 'top', '--episodes', 10, '--out', d, '--seed', 4, '--max-steps', 8, '--quiet', '--resume')
    return d

def test_collect_resumes_to_the_same_attempts(store):
    st = EpisodeStore(store); assert len(st) == 10
    ref = list(judge_stream(10, seed=4, steps=8, block=8))                   # the uninterrupted stream
    for i, e in enumerate(ref):
        got = st.load(i)
        assert got.instruction == e.instruction and list(got.events) == list(e.events) and got.policy_id == e.policy_id
        np.testing.assert_allclose(got.actions, e.actions, atol=1e-6)
        assert len(got) == 9 and np.abs(got.frames.astype(int) - e.frames).mean() < 8   # lossy video, same frames
    assert json.loads((store/'meta/collect.json').read_text())['mode'] == 'judge'

def test_evaluate_judge_on_a_store(store, capsys):
    capsys.readouterr(); pw('evaluate', 'judge', '--data', store, '--json', '--quiet')
    r = json.loads(capsys.readouterr().out)
    ref = evaluate_judge(load_judge(default_judge()), judge_items(store))
    for k in ('accuracy', 'balanced_accuracy', 'tpr', 'fpr', 'n'): assert r[k] == pytest.approx(ref[k]), k
    assert r['n'] == 10 and sum(v['n'] for v in r['per_family'].values()) == 10
    assert r['accuracy_ci'] == pytest.approx(ref['accuracy_ci']) and r['accuracy_ci'][0] <= r['accuracy'] <= r['accuracy_ci'][1]   # Wilson 95 %

@pytest.mark.parametrize('args, says', [
    (('collect', '--mode', 'judge', '--task', 'lift', '--episodes', 2, '--out', 'X'), '--task applies to --mode demo only'),
    (('evaluate', 'judge', '--episodes', 2, '--families', 'fly', '--quiet'), "unknown task families ['fly']"),
    (('evaluate', 'judge', '--episodes', 0, '--quiet'), 'n must be >= 1 attempt, got 0'),
    (('evaluate', 'judge', '--imagined', '--quiet'), '--imagined needs --model DIR'),
    (('collect', '--mode', 'judge', '--state', '--episodes', 2, '--out', 'X'), '--state applies to --mode policy only'),
    (('evaluate', 'judge', '--episodes', 2, '--leads', '4,8', '--quiet'), '--leads 4,8 needs --imagined --model DIR'),
])
def test_bad_arguments_exit_2(args, says, tmp_path, capsys):
    rc = pw(*[tmp_path / a if a == 'X' else a for a in args], check=False)
    err = capsys.readouterr().err
    assert rc == 2 and says in err, err[-2000:]

def test_evaluate_judge_imagined(store, capsys):
    "--imagined judges the world model's version of each attempt against the real outcome; --families filters a store."
    from playworld.assets import default_checkpoint
    capsys.readouterr()
    pw('evaluate', 'judge', '--data', store, '--families', 'pick_place,stack,lift,place,push,knock', '--imagined',
       '--model', default_checkpoint(), '--json', '--quiet', '--batch-size', 5, '--leads', '1,5')
    r = json.loads(capsys.readouterr().out)
    assert r['n'] == r['imagined']['n'] == 10
    assert list(r['imagined_leads']) == ['1', '5'] and r['imagined_leads']['1']['n'] == 10
    assert r['imagined_leads']['5'] == {k: v for k, v in r['imagined'].items() if k != 'model'}   # 9 frames, 4 of context: lead 5 is the whole rollout
    assert r['imagined']['success_rate'] == r['success_rate']                # the real labels
    assert 0 <= r['imagined']['accuracy'] <= 1 and r['imagined']['model'] == str(default_checkpoint())

def test_train_judge_curve(store, tmp_path):
    "train-judge: one judge per size of the curve, the largest saved; its held-out accuracy is what the saved judge scores."
    out = tmp_path/'judge'
    pw('train-judge', '--data', store, '--out', out, '--sizes', '4,8', '--set', 'epochs=2', '--set', 'hidden=32', '--quiet')
    rep = json.loads((out/'report.json').read_text())
    assert [c['n_train'] for c in rep['curve']] == [4, 8] and rep['final']['n_val'] == 2 and rep['config']['hidden'] == 32
    items = judge_items(store)
    assert evaluate_judge(load_judge(out), items[-2:])['accuracy'] == pytest.approx(rep['curve'][-1]['accuracy'])

def test_train_judge_on_imagined_attempts(store, tmp_path):
    "train-judge --imagined-by: the judge trains on the model's replays of the attempts (cached, real labels) and is held out on them."
    from playworld.assets import default_checkpoint
    from playworld.eval.judge import load_judge_items, imagined_attempts
    from playworld.wm.model import load_world_model
    out = tmp_path/'judge'
    args = ('train-judge', '--data', store, '--out', out, '--imagined-by', default_checkpoint(), '--set', 'arch=trees', '--set', 'trees=20', '--quiet')
    pw(*args)
    rep = json.loads((out/'report.json').read_text())
    assert rep['imagined_by'] == str(default_checkpoint()) and rep['data'] == [str(store)] and rep['final']['n_val'] == 2
    cache = out/'imagined'/f'0-{store.name}'
    its = load_judge_items(cache)                                     # one item per real attempt, with its real label
    assert [i.success for i in its] == [e.success for e in judge_items(store)] and len(its) == 10
    wm = load_world_model(default_checkpoint()).eval()
    ref = judge_items(imagined_attempts(wm, EpisodeStore(store).load_all(), batch_size=10, seed=0))[0]   # one shard: one batch, seed 0
    np.testing.assert_allclose(its[0].feats, ref.feats, atol=1e-5)   # attempt 0 as the model imagines it, not as it was
    assert evaluate_judge(load_judge(out), its[-2:])['accuracy'] == pytest.approx(rep['final']['accuracy'])   # held out on imagined attempts
    t = (cache/'items-00000.npz').stat().st_mtime; pw(*args); assert (cache/'items-00000.npz').stat().st_mtime == t   # reused
    rc = pw('train-judge', '--data', store, '--out', tmp_path/'j2', '--imagined-by', default_checkpoint(), '--set', 'arch=cnn', '--quiet', check=False)
    assert rc == 2

def test_collect_policy_attempts_image_only_or_with_state(tmp_path):
    "collect --mode policy: the policy acts image-only (as the ladder measures it) unless --state feeds it its proprioception."
    pol = 'data_samples/rl/policies/lift/base'
    for d, extra in (('img', ()), ('state', ('--state',))):
        pw('collect', '--mode', 'policy', '--policy', pol, '--episodes', 2, '--max-steps', 6, '--seed', 3, '--out', tmp_path/d, '--quiet', *extra)
    img, st = EpisodeStore(tmp_path/'img').load(0), EpisodeStore(tmp_path/'state').load(0)
    from playworld.rl.policy import policy_stream
    ref = next(iter(policy_stream(pol)(1, 0, 3, 64, 6)))             # the image-only stream
    np.testing.assert_allclose(img.actions, ref.actions, atol=1e-6)
    assert not np.allclose(img.actions, st.actions)
    # a resume must be the same policy acting the same way: --state, or a policy changed in place, is refused
    more = ('collect', '--mode', 'policy', '--episodes', 3, '--max-steps', 6, '--seed', 3, '--out', tmp_path/'img', '--quiet', '--resume')
    assert pw(*more, '--policy', pol, '--state', check=False) == 2
    from playworld.rl.policy import load_policy, save_policy
    q = load_policy(pol); q.register_to_config(act_eta=1.0); save_policy(q, tmp_path/'eta1')
    assert pw(*more, '--policy', tmp_path/'eta1', check=False) == 2
    pw(*more, '--policy', pol); assert len(EpisodeStore(tmp_path/'img')) == 3
    # the same for feature shards: a resume with another seed or policy is refused, naming what differs
    feats = lambda n, policy, seed: pw('collect', '--mode', 'policy', '--features', '--episodes', n, '--max-steps', 6, '--out', tmp_path/'f', '--quiet',
                                      '--policy', policy, '--seed', seed, check=False)
    assert feats(2, pol, 3) == 0
    assert feats(3, pol, 4) == 2
    assert feats(3, tmp_path/'eta1', 3) == 2
    assert feats(3, pol, 3) == 0
    from playworld.eval.judge import load_judge_items
    assert len(load_judge_items(tmp_path/'f')) == 3

@pytest.mark.parametrize('kv, says', [('epochs=two', 'epochs'), ('width=3', "unknown train-judge settings ['width']"),
                                      ('arch=vit', "JudgeConfig.arch='vit'")])
def test_train_judge_bad_settings(store, tmp_path, capsys, kv, says):
    rc = pw('train-judge', '--data', store, '--out', tmp_path/'j', '--set', kv, '--quiet', check=False)
    err = capsys.readouterr().err
    assert rc == 2 and says in err and not (tmp_path/'j').exists(), err[-2000:]

def test_two_camera_judge(store, tmp_path, capsys):
    "collect --mode judge --cameras top,front records both views; a judge trained on them reads both, and refuses a top-only store by name."
    d = tmp_path/'two'
    pw('collect', '--mode', 'judge', '--cameras', 'top,front', '--episodes', 8, '--out', d, '--seed', 4, '--max-steps', 8, '--quiet')
    st = EpisodeStore(d); assert st.camera_keys == ['observation.images.top', 'observation.images.front']
    top = EpisodeStore(store)
    for i in range(3):                                                       # the same attempts as the top-only collection, seen twice
        a, b = top.load(i), st.load(i)
        assert a.instruction == b.instruction and list(a.events) == list(b.events)
        assert np.abs(a.frames.astype(int) - b.frames).mean() < 3
    pw('train-judge', '--data', d, '--out', tmp_path/'j', '--set', 'epochs=2', '--quiet')
    j = load_judge(tmp_path/'j'); assert j.cfg.keys == ('observation.images.top', 'observation.images.front')
    capsys.readouterr(); pw('evaluate', 'judge', '--judge', tmp_path/'j', '--episodes', 3, '--seed', 9, '--steps', 8, '--json', '--quiet')
    r = json.loads(capsys.readouterr().out)
    ref = evaluate_judge(j, judge_items([e for e in judge_stream(3, seed=9, steps=8, cameras=('top', 'front'))]))
    assert r['n'] == 3 and r['accuracy'] == pytest.approx(ref['accuracy'])
    assert sum(b['n'] for b in r['calibration']['bins']) == 3
    rc = pw('evaluate', 'judge', '--judge', tmp_path/'j', '--data', store, '--quiet', check=False)
    assert rc == 2 and "has no camera ['observation.images.front']" in capsys.readouterr().err

def test_collect_features_trains_and_evaluates(tmp_path, capsys):
    "collect --features keeps the judge's keypoint features of the same attempts (no video); train-judge and evaluate judge read the shards."
    from playworld.eval.judge import load_judge_items, fresh_attempts
    d = tmp_path/'items'
    pw('collect', '--mode', 'judge', '--features', '--cameras', 'top,front', '--episodes', 12, '--out', d, '--seed', 4, '--max-steps', 8, '--quiet')
    got = load_judge_items(d)
    ref = judge_items(fresh_attempts(12, seed=4, steps=8, cameras=('top', 'front')))
    assert [(g.instruction, g.success, list(g.events)) for g in got] == [(r.instruction, r.success, list(r.events)) for r in ref]
    np.testing.assert_allclose(got[7].feats, ref[7].feats, atol=1e-6)         # the features of the frames, not of a lossy video
    out = tmp_path/'judge'
    pw('train-judge', '--data', d, '--out', out, '--set', 'arch=trees', '--set', 'trees=20', '--set', 'onset_p=1', '--quiet')
    capsys.readouterr(); pw('evaluate', 'judge', '--judge', out, '--data', d, '--json', '--quiet')
    r = json.loads(capsys.readouterr().out)
    assert r['n'] == 12 and r['accuracy'] == pytest.approx(evaluate_judge(load_judge(out), got)['accuracy'])
    rc = pw('collect', '--mode', 'play', '--features', '--episodes', 2, '--out', tmp_path/'p', '--quiet', check=False)
    assert rc == 2 and '--features applies to --mode judge or policy' in capsys.readouterr().err
