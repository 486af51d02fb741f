"""LeRobot v3.0 datasets as lerobot writes them (several episodes per file, chunk folders, AV1, two non-square cameras,
image features in parquet) open directly in `EpisodeStore`: counts, frames equal to PyAV's own decode, actions equal to
the parquet. The dataset is written by tests/lerobot_v3.py with pyarrow + PyAV (lerobot itself is not installed)."""
import json, numpy as np, pytest, av, pyarrow as pa, pyarrow.parquet as pq
from lerobot_v3 import write_lerobot_v3
from playworld.data.store import EpisodeStore

def _pyav(path):
    "Every frame of a video, decoded by PyAV alone."
    with av.open(str(path)) as c: return np.stack([f.to_ndarray(format='rgb24') for f in c.decode(video=0)])

@pytest.fixture(scope='module')
def av1(tmp_path_factory):
    root = tmp_path_factory.mktemp('lr')/'ds'
    return root, write_lerobot_v3(root, lengths=[62, 55, 70, 48, 75], episodes_per_file=2)

def test_counts_frames_actions(av1):
    root, gt = av1
    st = EpisodeStore(root)
    assert (len(st), st.info['total_frames']) == (5, 310)
    assert st.cameras == {'observation.images.front': (96, 128), 'observation.images.wrist': (96, 128)}
    full = {}
    for i, ep in enumerate(st.iter_episodes()):
        assert len(ep) == gt['lengths'][i]
        np.testing.assert_array_equal(ep.actions, gt['actions'][i]); np.testing.assert_allclose(ep.state, gt['states'][i], rtol=0, atol=0)
        for k in st.camera_keys:
            p = st.video_file(i, k); full.setdefault(p, _pyav(p))
            a = round(st.meta[i][f'videos/{k}/from_timestamp'] * st.fps)
            np.testing.assert_array_equal(ep.cameras[k], full[p][a:a + len(ep)])
    assert len({st.video_file(i, 'observation.images.front') for i in range(5)}) == 3     # 2 + 2 + 1 episodes per file
    np.testing.assert_array_equal(st.load(3).cameras['observation.images.wrist'], next(e for j, e in enumerate(st.iter_episodes()) if j == 3).cameras['observation.images.wrist'])
    assert st.tasks == gt['task_list']

def test_chunks_and_image_features(tmp_path):
    gt = write_lerobot_v3(tmp_path/'b', n_episodes=7, episodes_per_file=2, chunks_size=2, image_cameras=('side',), codec='h264',
                          cameras={'front': (96, 128), 'side': (48, 64)})
    st = EpisodeStore(tmp_path/'b', cameras='side,front')
    assert st.camera_keys == ['observation.images.side', 'observation.images.front'] and not st.is_video('observation.images.side')
    eps = st.load_all()
    assert [len(e) for e in eps] == gt['lengths']
    assert eps[6].frames.shape == (gt['lengths'][6], 48, 64, 3)
    assert st.data_file(6).parent.name == 'chunk-001'                     # files 0, 1 in chunk 0, then chunk 1
    assert st.next_file == 4

def test_bad_span_and_missing_camera(av1, tmp_path):
    import shutil
    root, gt = av1
    with pytest.raises(ValueError, match='has no camera observation.images.top: it has observation.images.front, observation.images.wrist'):
        EpisodeStore(root, cameras=['top'])
    bad = tmp_path/'bad'; shutil.copytree(root, bad)
    p = bad/'meta/episodes/chunk-000/file-000.parquet'; t = pq.read_table(p)
    for col in ('videos/observation.images.wrist/from_timestamp', 'videos/observation.images.wrist/to_timestamp'):
        x = t.column(col).to_numpy().copy(); x[1] += 3.0; t = t.set_column(t.column_names.index(col), col, pa.array(x))
    pq.write_table(t, p)
    with pytest.raises(ValueError, match=r"episode 1, observation.images.wrist: video file .*file-000.mp4 holds 0 frames"):
        EpisodeStore(bad).load(1)
    np.testing.assert_array_equal(EpisodeStore(bad, cameras='front').load(1).actions, gt['actions'][1])   # the other camera still reads
