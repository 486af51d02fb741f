"""A store we write opens in lerobot's own LeRobotDataset (skipped where lerobot does not import: it pins
torch < 2.11 and imports torchvision, neither of which this project installs)."""
import numpy as np, pytest
from playworld.data.store import EpisodeStore
from playworld.play.run import collect_to_store

def test_lerobot_opens_our_store(tmp_path):
    ld = pytest.importorskip('lerobot.datasets.lerobot_dataset', exc_type=ImportError)
    collect_to_store(tmp_path/'s', 'demo', 3, max_steps=40, progress=False)
    m = ld.LeRobotDatasetMetadata('local/playworld', root=tmp_path/'s')
    st = EpisodeStore(tmp_path/'s')
    assert (m.total_episodes, m.total_frames, m.fps) == (3, st.info['total_frames'], 20)
    assert m.video_keys == ['observation.images.top'] and list(m.tasks.index) == st.tasks
    ds = ld.LeRobotDataset('local/playworld', root=tmp_path/'s', download_videos=False)
    assert ds.num_frames == st.info['total_frames']
    assert np.allclose(np.asarray(ds.hf_dataset[5]['action']), st.load(0).actions[5])
