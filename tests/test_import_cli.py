"""`playworld import` and `playworld info` as a user runs them: a LeRobot v3.0 dataset as lerobot writes it (two
non-square AV1 cameras, several episodes per file), the DROID sample, and bad inputs that must leave the store as it was."""
import json, shutil, subprocess, sys, numpy as np, pytest, av, pyarrow as pa, pyarrow.parquet as pq
from pathlib import Path
from lerobot_v3 import write_lerobot_v3
from playworld.data.store import EpisodeStore
from playworld.app.cli import main

ROOT = Path(__file__).resolve().parents[1]
DROID = ROOT/'data_samples'/'droid_sample'

def run(capsys, *argv):
    "Run the CLI in-process; (exit status, stdout, stderr)."
    rc = main([str(a) for a in argv]); o = capsys.readouterr(); return rc, o.out, o.err

@pytest.fixture(scope='module')
def lr(tmp_path_factory):
    root = tmp_path_factory.mktemp('lr')/'ds'
    return root, write_lerobot_v3(root, lengths=[62, 55, 70, 48, 75], episodes_per_file=2, cameras={'front': (96, 128), 'wrist': (96, 128)})

def test_import_lerobot_v3_av1(lr, tmp_path, capsys):
    root, gt = lr
    rc, out, err = run(capsys, 'import', root, '--out', tmp_path/'s', '--json')
    assert rc == 0, err
    r = json.loads(out)
    assert r == dict(episodes=5, frames=310, cameras={'observation.images.front': [96, 128], 'observation.images.wrist': [96, 128]},
                     fps=30, action_dim=6, state_dim=6, tasks=len(gt['task_list']), imported=5, resumed_from=0)
    src, st = EpisodeStore(root), EpisodeStore(tmp_path/'s')
    assert st.info['playworld']['import']['format'] == 'lerobot'
    for i, (a, b) in enumerate(zip(src.iter_episodes(), st.iter_episodes())):
        np.testing.assert_array_equal(b.actions, gt['actions'][i])          # actions equal to the parquet
        for k in a.cameras:                                                 # frames: PyAV's own decode, then our near-lossless H.264
            mse = np.mean((a.cameras[k].astype(float) - b.cameras[k]) ** 2)
            assert 10 * np.log10(255 ** 2 / max(mse, 1e-9)) > 40, (i, k)
    rc, out, _ = run(capsys, 'info', root, '--json'); i = json.loads(out)
    assert (i['episodes'], i['frames'], i['codecs'], i['lengths']) == (5, 310, {'observation.images.front': 'av1', 'observation.images.wrist': 'av1'}, [48, 75])
    rc, out, _ = run(capsys, 'info', tmp_path/'s'); assert rc == 0 and '5 episodes, 310 frames' in out and 'observation.images.wrist: 96x128 (h264)' in out

def test_import_choices(lr, tmp_path, capsys):
    root, gt = lr
    rc, out, err = run(capsys, 'import', root, '--out', tmp_path/'w', '--cameras', 'wrist', '--size', '64', '--crop', 'center', '--json')
    assert rc == 0, err
    assert json.loads(out)['cameras'] == {'observation.images.wrist': [64, 64]}
    imp = EpisodeStore(tmp_path/'w').info['playworld']['import']
    assert (imp['cameras'], imp['size'], imp['crop']) == (['observation.images.wrist'], [64, 64], 'center')
    rc, _, err = run(capsys, 'import', root, '--out', tmp_path/'x', '--cameras', 'top')
    assert rc == 2 and 'has no camera observation.images.top: it has observation.images.front, observation.images.wrist' in err
    assert not (tmp_path/'x').exists()
    rc, _, err = run(capsys, 'import', root, '--out', tmp_path/'w')
    assert rc == 2 and 'add to it with --append' in err and 'episode [' not in err   # refused before any bar is drawn

def test_import_droid(tmp_path, capsys):
    if not DROID.is_dir(): pytest.skip('no DROID sample')
    rc, out, err = run(capsys, 'import', DROID, '--format', 'droid', '--out', tmp_path/'d', '--json')
    assert rc == 0, err
    r = json.loads(out); lengths = [json.loads(p.read_text())['video_length'] for p in sorted(DROID.glob('annotation/*/*.json'))]
    assert r['episodes'] == 11 and r['frames'] == sum(lengths) and len(r['cameras']) == 3
    assert all(hw == [192, 320] for hw in r['cameras'].values())
    assert sorted(len(e) for e in EpisodeStore(tmp_path/'d').iter_episodes()) == sorted(lengths)
    rc, out, _ = run(capsys, 'info', DROID, '--json'); assert json.loads(out)['episodes'] == 11

def test_import_droid_states_only_schema(tmp_path, capsys):
    "Ctrl-World's states-only annotations (droid_new_setup: no raw_length, no observation.state.* / action.*) import, and info names the schema."
    if not DROID.is_dir(): pytest.skip('no DROID sample')
    src = tmp_path/'new'; shutil.copytree(DROID/'videos'/'val'/'199', src/'videos'/'val'/'199'); (src/'annotation'/'val').mkdir(parents=True)
    j = json.loads((DROID/'annotation'/'val'/'199.json').read_text()); keep = ('texts', 'success', 'video_length', 'videos', 'states')
    (src/'annotation'/'val'/'199.json').write_text(json.dumps({k: j[k] for k in keep}))
    rc, out, err = run(capsys, 'info', src); assert rc == 0 and "DROID annotation schema 'states'" in out, err
    rc, out, _ = run(capsys, 'info', DROID); assert "DROID annotation schema 'raw'" in out
    rc, out, err = run(capsys, 'import', src, '--format', 'droid', '--out', tmp_path/'s', '--cameras', 'wrist', '--size', '32', '--json')
    assert rc == 0, err
    assert (json.loads(out)['episodes'], json.loads(out)['action_dim']) == (1, 7)
    st = EpisodeStore(tmp_path/'s'); assert st.info['playworld']['import']['droid_schema'] == 'states'
    np.testing.assert_array_equal(st.load(0).actions[:-1], np.float32(j['states'][1:]))   # the next frame's pose
    rc, out, _ = run(capsys, 'info', tmp_path/'s'); assert "DROID annotation schema 'states'" in out
    # neither schema: refused naming the missing keys, nothing written
    (src/'annotation'/'val'/'199.json').write_text(json.dumps({k: j[k] for k in keep[:-1]}))
    rc, _, err = run(capsys, 'import', src, '--format', 'droid', '--out', tmp_path/'bad')
    assert rc == 2 and "lacks ['states']: a DROID / Ctrl-World annotation has" in err, err
    assert not (tmp_path/'bad').exists()

def _copy(root, tmp_path, name):
    d = tmp_path/name; shutil.copytree(root, d); return d

def _snapshot(d):
    return {p.relative_to(d): p.read_bytes() for p in Path(d).rglob('*') if p.is_file() and p.name != '.write.lock'}

def test_bad_inputs_leave_the_store(lr, tmp_path, capsys):
    root, gt = lr
    assert run(capsys, 'import', root, '--out', tmp_path/'s', '--max-episodes', '2')[0] == 0
    before = _snapshot(tmp_path/'s')
    # a camera whose video has fewer frames than the parquet: the last file's video cut short
    short = _copy(root, tmp_path, 'short'); st = EpisodeStore(short); k = 'observation.images.wrist'; p = st.video_file(4, k)
    with av.open(str(p)) as c: fr = [f.to_ndarray(format='rgb24') for f in c.decode(video=0)]
    with av.open(str(p), 'w') as c:
        s = c.add_stream('libx264', rate=30); s.width, s.height, s.pix_fmt = 128, 96, 'yuv420p'
        for t, f in enumerate(fr[:-10]):
            vf = av.VideoFrame.from_ndarray(f, format='rgb24'); vf.pts = t; c.mux(s.encode(vf))
        c.mux(s.encode())
    rc, _, err = run(capsys, 'import', short, '--out', tmp_path/'s', '--append', '--batch', '1')
    assert rc == 2 and 'episodes 4..4, observation.images.wrist' in err and 'holds 65 frames' in err, err
    # NaN in a state row
    nan = _copy(root, tmp_path, 'nan'); q = EpisodeStore(nan).data_file(2); t = pq.read_table(q)
    x = np.stack(t.column('observation.state').to_numpy(zero_copy_only=False)); x[5, 0] = np.nan
    t = t.set_column(t.column_names.index('observation.state'), 'observation.state', pa.FixedSizeListArray.from_arrays(pa.array(x.reshape(-1)), 6))
    pq.write_table(t, q)
    rc, _, err = run(capsys, 'import', nan, '--out', tmp_path/'s', '--append', '--batch', '1')
    assert rc == 2 and 'episode 2 in' in err and 'state must be finite' in err, err
    # an episode span outside its video
    span = _copy(root, tmp_path, 'span'); q = span/'meta/episodes/chunk-000/file-000.parquet'; t = pq.read_table(q)
    for col in ('videos/observation.images.front/from_timestamp', 'videos/observation.images.front/to_timestamp'):
        v = t.column(col).to_numpy().copy(); v[3] += 5; t = t.set_column(t.column_names.index(col), col, pa.array(v))
    pq.write_table(t, q)
    rc, _, err = run(capsys, 'import', span, '--out', tmp_path/'s', '--append')
    assert rc == 2 and 'observation.images.front' in err and "span outside its video" in err, err
    assert _snapshot(tmp_path/'s') == before                                # nothing in the output store changed
    assert len(EpisodeStore(tmp_path/'s')) == 2

def test_info_v21_and_help(tmp_path, capsys):
    rc, out, _ = run(capsys, 'info', ROOT/'data_samples'/'bridge_sample', '--json'); r = json.loads(out)
    assert (r['format'], r['episodes'], r['action_dim']) == ('mp4-npz', 8, 7)
    rc, _, err = run(capsys, 'info', tmp_path)
    assert rc == 2 and 'is not a dataset this workbench reads' in err

def test_mp4_npz_rate_is_flagged(tmp_path, capsys):
    """An mp4's rate is its converter's: the Bridge sample's videos say 20 fps, the robot ran at 5 Hz. `info` and the import
    summary say the rate is the videos' stored one and point to --fps; with --fps the store records it and nothing warns."""
    src = ROOT/'data_samples'/'bridge_sample'/'train'
    rc, out, _ = run(capsys, 'info', src)
    assert rc == 0 and "20 fps (the videos' stored rate, maybe not the robot's: Bridge V2 ran at 5 Hz; set it with --fps)" in out, out
    rc, out, err = run(capsys, 'import', src, '--out', tmp_path/'a', '--quiet', '--max-episodes', '1')
    assert rc == 0 and "20 fps (the videos' stored rate" in out and 'playworld: warning:' in err and 'pass --fps' in err, (out, err)
    rc, out, err = run(capsys, 'import', src, '--out', tmp_path/'b', '--quiet', '--max-episodes', '1', '--fps', '5')
    assert rc == 0 and out.rstrip().endswith('5 fps') and 'warning' not in err, (out, err)
    assert EpisodeStore(tmp_path/'b').fps == 5 and EpisodeStore(tmp_path/'a').fps == 20

def test_every_help_formats():
    "Every command's and sub-command's `--help` renders (a stray '%' in a help text breaks argparse's formatting)."
    import argparse
    from playworld.app.cli import build_parser
    todo, seen = [(('playworld',), build_parser())], 0
    while todo:
        name, p = todo.pop()
        assert p.format_help(), name; seen += 1
        for act in p._actions:
            if isinstance(act, argparse._SubParsersAction):
                todo += [(name + (k,), c) for k, c in act.choices.items()]
                p.format_help()   # the group listing formats every sub-command's one-line help
    assert seen > 20
