"""Bad input around a collected store: each error names the file and the numbers, and nothing stored is lost."""
import logging, pytest
from pathlib import Path
from playworld.data.store import EpisodeStore
from playworld.play.run import collect_to_store, play_stream
import pytest

@pytest.fixture(scope='session')   # built once per run (make test sends each file whole to one worker)
def store(tmp_path_factory):
    d = tmp_path_factory.mktemp('s')/'store'
    collect_to_store(d, 'demo', 3, seed=0, max_steps=40, progress=False)
    return d

def fresh(store, tmp_path):
    import shutil; d = tmp_path/'copy'; shutil.copytree(store, d); return d

def test_truncated_parquet(store, tmp_path):
    d = fresh(store, tmp_path); p = d/'data/chunk-000/file-001.parquet'
    b = p.read_bytes(); p.write_bytes(b[:len(b) // 2])
    st = EpisodeStore(d)
    with pytest.raises(ValueError, match=f'corrupt or truncated parquet file {p}'): st.load(1)
    assert len(st.load(0)) and len(st.load(2))                 # the other episodes still load
    collect_to_store(d, 'demo', 4, resume=True, seed=0, max_steps=40, progress=False)   # and the run can go on
    assert len(EpisodeStore(d)) == 4 and len(EpisodeStore(d).load(3))

def test_mp4_shorter_than_table(store, tmp_path):
    from playworld.data.store import encode_video, decode_video
    d = fresh(store, tmp_path); st = EpisodeStore(d); v = st.paths(2)[1]; L = st.meta[2]['length']
    encode_video(decode_video(v, st.fps)[:L - 5], v, st.fps)
    with pytest.raises(ValueError, match=rf'episode 2, observation.images.top: video file {v} holds {L-5} frames in the span \[0.0000, {L/st.fps:.4f}\) s of {L} frames'):
        EpisodeStore(d).load(2)
    assert len(EpisodeStore(d).load(0)) == st.meta[0]['length']

def test_instruction_scene_cannot_satisfy(store, tmp_path, caplog):
    class Impossible:          # names a real instruction, but knocking needs a tower the scene does not have
        def propose(self, env, history, rng):
            bad = [i for i in ('knock the red block off the green block', 'stack the red block on the green block') if i not in env.instructions()]
            return bad[0]
    with caplog.at_level(logging.WARNING, logger='playworld.collect'):
        eps = list(play_stream(2, seed=0, max_steps=20, proposer=Impossible()))
    assert len(eps) == 2 and 'rejected' in caplog.text and 'is not possible in the current scene' in caplog.text
    with pytest.raises(ValueError, match="unknown instruction 'stack the red block on the red block'"):
        collect_to_store(tmp_path/'x', 'demo', 2, task='stack the red block on the red block', progress=False)
    assert len(EpisodeStore(store)) == 3
