"""Test helper: write a synthetic LeRobot **v3.0** dataset to disk, laid out as lerobot 0.3.x / 0.4.x writes it
(`LeRobotDataset.create(...)`, `add_frame`, `save_episode`, `finalize`), using only pyarrow, numpy, PyAV and the
standard library. lerobot itself is never imported.

What is reproduced (from lerobot's `datasets/lerobot_dataset.py`, `datasets/utils.py`, `datasets/video_utils.py`,
`datasets/compute_stats.py`):

- `data/chunk-XXX/file-YYY.parquet`: the HF-datasets columns in feature order (`action`, `observation.state`,
  image features, then `timestamp`, `frame_index`, `episode_index`, `index`, `task_index`); vectors are
  `fixed_size_list<float32>[D]` (HF `Sequence(Value('float32'), length=D)`), `timestamp` float32, the indices
  int64, image features a struct `{bytes: binary, path: string}` with PNG bytes and the frame file's base name;
  the `huggingface` schema metadata HF datasets attaches; snappy, one row group per episode (lerobot calls
  `ParquetWriter.write_table` once per `save_episode`).
- `videos/<key>/chunk-XXX/file-YYY.mp4`: episodes concatenated, each episode starting on a key frame (lerobot
  encodes each episode alone, g=2 crf=30 yuv420p, then concatenates with ffmpeg's concat demuxer); frame k of a
  file at pts k with time base 1/fps.
- `meta/episodes/chunk-000/file-000.parquet`: one row per episode (column order as lerobot builds the dict),
  `stats/<feature>/<stat>` per feature, written in batches of 10 rows like lerobot's metadata buffer.
- `meta/tasks.parquet`: a pandas frame written by `DataFrame.to_parquet`: the task string is the (unnamed) index,
  stored as column `__index_level_0__` with `pandas` schema metadata, plus int64 column `task_index`.
- `meta/stats.json`, `meta/info.json` (json.dump indent=4, ensure_ascii=False).

Rules this helper adds (lerobot decides these by file size; tests want control):
- `episodes_per_file` episodes go in each data file and in each video file (None: all in one). A new file's
  (chunk, file) index advances as lerobot's `update_chunk_file_indices`: file index +1, and after file
  `chunks_size - 1` the chunk index +1 and the file index back to 0. `meta/episodes` stays in one file.
- Cameras: `cameras` maps short name -> (H, W) (H, W even, as yuv420p needs). A name listed in `image_cameras`
  is stored as an `image` feature in the data parquet instead of a video; its size is `cameras[name]` when the
  name is in `cameras`, else (96, 128). Every other name in `cameras` is a `video` feature.
- Episode i performs `tasks[i % len(tasks)]`; task_index follows first appearance.
"""
import json, os, zlib
from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

__all__ = ['write_lerobot_v3', 'make_frames', 'pick_codec']

CODEBASE_VERSION = 'v3.0'
DATA_FILES_SIZE_IN_MB = 100    # lerobot DEFAULT_DATA_FILE_SIZE_IN_MB
VIDEO_FILES_SIZE_IN_MB = 200   # lerobot DEFAULT_VIDEO_FILE_SIZE_IN_MB (500 in the first 3.0 releases)
ROBOT_TYPE = 'synthetic_arm'
DATA_PATH = 'data/chunk-{chunk_index:03d}/file-{file_index:03d}.parquet'
VIDEO_PATH = 'videos/{video_key}/chunk-{chunk_index:03d}/file-{file_index:03d}.mp4'
EPISODES_PATH = 'meta/episodes/chunk-{chunk_index:03d}/file-{file_index:03d}.parquet'
TASKS_PATH = 'meta/tasks.parquet'
DEFAULT_CAMERAS = {'front': (96, 128), 'wrist': (96, 128)}
DEFAULT_IMAGE_SIZE = (96, 128)
DEFAULT_TASKS = ('pick up the red cube', 'push the blue block to the left')
QUANTILES = (0.01, 0.10, 0.50, 0.90, 0.99)  # lerobot 0.4 DEFAULT_QUANTILES -> stats q01 q10 q50 q90 q99
INDEX_FEATURES = ('timestamp', 'frame_index', 'episode_index', 'index', 'task_index')
META_BUFFER = 10               # lerobot LeRobotDatasetMetadata metadata_buffer_size

# ---------------------------------------------------------------- synthetic content

def _cam_seed(seed:int, name:str)->int: return zlib.crc32(f'{seed}/{name}'.encode())

def make_frames(seed:int, camera:str, episode:int, T:int, H:int, W:int)->np.ndarray:
    "(T, H, W, 3) uint8 frames of `camera` in `episode`: a per-camera tinted gradient and 3 moving coloured squares."
    rng = np.random.default_rng([_cam_seed(seed, camera), episode])
    tint = rng.integers(30, 120, 3)
    yy, xx = np.mgrid[0:H, 0:W]
    bg = (tint[None, None] + np.stack([xx * 60 // W, yy * 60 // H, (xx + yy) * 30 // (H + W)], -1)).clip(0, 255)
    out = np.empty((T, H, W, 3), np.uint8)
    out[:] = bg.astype(np.uint8)
    s = max(4, min(H, W) // 5)
    pos = rng.uniform([0, 0], [H - s, W - s], (3, 2))
    vel = rng.uniform(0.8, 2.5, (3, 2)) * rng.choice([-1.0, 1.0], (3, 2))   # pixels per frame
    col = rng.integers(0, 256, (3, 3)).astype(np.uint8)
    span = np.array([H - s, W - s], float)
    for t in range(T):
        p = pos + vel * t
        p = span - np.abs(np.mod(p, 2 * span) - span)   # bounce inside the frame
        for (y, x), c in zip(p.astype(int), col): out[t, y:y + s, x:x + s] = c
    return out

def _vectors(seed:int, episode:int, T:int, A:int, S:int)->tuple:
    "Smooth (T, S) states and (T, A) actions, float32."
    rng = np.random.default_rng([seed, 7919, episode])
    t = np.arange(T)[:, None] / 30.0
    state = (np.sin(t * rng.uniform(0.5, 3, S) + rng.uniform(0, 6.3, S)) * rng.uniform(0.2, 1.5, S)).astype(np.float32)
    action = (np.cos(t * rng.uniform(0.5, 3, A) + rng.uniform(0, 6.3, A)) * rng.uniform(0.2, 1.5, A)
              + rng.normal(0, 0.01, (T, A))).astype(np.float32)
    return action, state

def _png(img:np.ndarray)->bytes:
    "An RGB uint8 (H, W, 3) image as PNG bytes, written by Pillow as HF datasets' Image feature does (compress_level 6)."
    import io
    from PIL import Image
    b = io.BytesIO(); Image.fromarray(np.ascontiguousarray(img), 'RGB').save(b, format='PNG', compress_level=6); return b.getvalue()

def _hist_quantile(x:np.ndarray, qs)->list:
    "Per-column quantiles of (N, D) `x` from a 5000-bin histogram over [min, max] (as lerobot's RunningQuantileStats)."
    N, D = x.shape
    res = np.empty((len(qs), D))
    for d in range(D):
        col = x[:, d]
        edges = np.linspace(col.min() - 1e-10, col.max() + 1e-10, 5001)
        cum = np.cumsum(np.histogram(col, bins=edges)[0])
        for i, q in enumerate(qs):
            target = q * N
            j = int(np.searchsorted(cum, target))
            if j == 0: v = edges[0]
            elif j >= len(cum): v = edges[-1]
            else:
                before, inbin = cum[j - 1], cum[j] - cum[j - 1]
                v = edges[j] if inbin == 0 else edges[j] + (target - before) / inbin * (edges[j + 1] - edges[j])
            res[i, d] = v
    return list(res)

def _stats2d(x:np.ndarray, count:int)->dict:
    "min/max/mean/std/count/q.. over axis 0 of (N, D) `x`."
    xf = x.astype(np.float64)
    st = {'min': x.min(0), 'max': x.max(0), 'mean': xf.mean(0), 'std': xf.std(0), 'count': np.array([count])}
    qv = _hist_quantile(xf, QUANTILES) if len(x) >= 2 else [st['mean'].copy() for _ in QUANTILES]
    for q, v in zip(QUANTILES, qv): st[f'q{int(q * 100):02d}'] = v
    return st

def _vector_stats(a:np.ndarray)->dict:
    "Stats of a (T,) or (T, D) episode column; (T,) columns give shape-(1,) stats, like lerobot's keepdims."
    return _stats2d(a.reshape(len(a), -1), len(a))

def _sample_indices(n:int)->list:
    "compute_stats.sample_indices: ~n**0.75 frames, at least 100 (or all when fewer), evenly spread."
    k = n if n < 100 else max(100, min(int(n ** 0.75), 10_000))
    return np.round(np.linspace(0, n - 1, k)).astype(int).tolist()

def _image_stats(frames:np.ndarray)->dict:
    "Per-channel stats of sampled (T, H, W, 3) uint8 frames, in [0, 1], shape (3, 1, 1) (count = frames sampled)."
    imgs = frames[_sample_indices(len(frames))]
    if max(imgs.shape[1:3]) >= 300:   # auto_downsample_height_width
        f = int(max(imgs.shape[1:3]) / 150)
        imgs = imgs[:, ::f, ::f]
    st = _stats2d(imgs.reshape(-1, 3), len(imgs))
    return {k: v if k == 'count' else (np.asarray(v, np.float64) / 255.0).reshape(3, 1, 1) for k, v in st.items()}

def _aggregate(stats:list)->dict:
    "compute_stats.aggregate_feature_stats: count-weighted mean, pooled variance, min of mins, count-weighted quantiles."
    cnt = np.stack([s['count'] for s in stats]).astype(np.float64)
    total = cnt.sum(0)
    means = np.stack([np.asarray(s['mean'], np.float64) for s in stats])
    w = cnt.reshape(cnt.shape + (1,) * (means.ndim - cnt.ndim))
    mean = (means * w).sum(0) / total
    var = ((np.stack([np.asarray(s['std'], np.float64) ** 2 for s in stats]) + (means - mean) ** 2) * w).sum(0) / total
    out = {'min': np.min(np.stack([s['min'] for s in stats]), 0), 'max': np.max(np.stack([s['max'] for s in stats]), 0),
           'mean': mean, 'std': np.sqrt(var), 'count': np.stack([s['count'] for s in stats]).sum(0)}
    for k in [k for k in stats[0] if k.startswith('q') and k[1:].isdigit()]:
        out[k] = (np.stack([np.asarray(s[k], np.float64) for s in stats]) * w).sum(0) / total
    return out

def _tolist(v): return np.asarray(v).tolist()

def _item_lists(t:pa.DataType)->pa.DataType:
    "`t` with every list child named 'item' (pyarrow < 22's default, which files written by lerobot 0.3/0.4 carry)."
    if pa.types.is_list(t): return pa.list_(pa.field('item', _item_lists(t.value_type)))
    if pa.types.is_fixed_size_list(t): return pa.list_(pa.field('item', _item_lists(t.value_type)), t.list_size)
    return t

# ---------------------------------------------------------------- video

def pick_codec(codec:str='libsvtav1')->str:
    "The PyAV encoder to use: `codec` when this PyAV has it, else libx264 ('h264' means libx264, as in ffmpeg)."
    want = ['libx264', 'h264'] if codec in ('h264', 'libx264') else [codec, 'libx264', 'h264']
    for name in want:
        try: return av.codec.Codec(name, 'w').name
        except Exception: continue
    raise RuntimeError(f'no usable video encoder among {want}')

def _open_encoder(path:Path, codec:str, fps:int, H:int, W:int):
    out = av.open(str(path), 'w')
    st = out.add_stream(codec, rate=fps, options={'g': '2', 'crf': '30'})   # lerobot encode_video_frames defaults
    st.pix_fmt, st.width, st.height = 'yuv420p', W, H
    return out, st

def _video_info(path:Path, fps:int)->dict:
    "video_utils.get_video_info of the first video file (keys and order as lerobot writes them)."
    with av.open(str(path)) as c:
        v = c.streams.video[0]
        info = {'video.height': v.height, 'video.width': v.width, 'video.codec': v.codec_context.codec.canonical_name,
                'video.pix_fmt': v.pix_fmt, 'video.is_depth_map': False,
                'video.fps': int(v.base_rate) if v.base_rate else int(fps), 'video.channels': 3}
        info['has_audio'] = len(c.streams.audio) > 0
    return info

# ---------------------------------------------------------------- writing

def _file_slots(n:int, per_file:int, chunks_size:int)->list:
    "(chunk_index, file_index) of each episode: a new file every `per_file` episodes, stepped like update_chunk_file_indices."
    slots, ci, fi = [], 0, 0
    for e in range(n):
        if e and e % per_file == 0: ci, fi = (ci + 1, 0) if fi == chunks_size - 1 else (ci, fi + 1)
        slots.append((ci, fi))
    return slots

def _hf_metadata(columns:dict, fingerprint:str)->dict:
    "The `huggingface` schema metadata HF datasets writes ({'info': {'features': ...}, 'fingerprint': ...})."
    def feat(t):
        if t == 'image': return {'_type': 'Image'}
        if isinstance(t, tuple): return {'feature': {'dtype': t[0], '_type': 'Value'}, 'length': t[1], '_type': 'List'}
        return {'dtype': t, '_type': 'Value'}
    meta = {'info': {'features': {k: feat(t) for k, t in columns.items()}}, 'fingerprint': fingerprint}
    return {b'huggingface': json.dumps(meta).encode()}

def _tasks_table(tasks:list)->pa.Table:
    "meta/tasks.parquet as pandas' DataFrame({'task_index': range(n)}, index=tasks).to_parquet writes it."
    meta = {'index_columns': ['__index_level_0__'],
            'column_indexes': [{'name': None, 'field_name': None, 'pandas_type': 'unicode', 'numpy_type': 'object',
                                'metadata': {'encoding': 'UTF-8'}}],
            'columns': [{'name': 'task_index', 'field_name': 'task_index', 'pandas_type': 'int64', 'numpy_type': 'int64',
                         'metadata': None},
                        {'name': None, 'field_name': '__index_level_0__', 'pandas_type': 'unicode',
                         'numpy_type': 'object', 'metadata': None}],
            'creator': {'library': 'pyarrow', 'version': pa.__version__}, 'pandas_version': '2.2.3'}
    schema = pa.schema([('task_index', pa.int64()), ('__index_level_0__', pa.string())],
                       metadata={b'pandas': json.dumps(meta).encode()})
    return pa.table({'task_index': pa.array(range(len(tasks)), pa.int64()), '__index_level_0__': pa.array(tasks, pa.string())},
                    schema=schema)

def _write_json(obj, path:Path):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, 'w') as f: json.dump(obj, f, indent=4, ensure_ascii=False)

def write_lerobot_v3(root, n_episodes=5, lengths=None, cameras=None, fps=30, action_dim=6, state_dim=6,
                     codec='libsvtav1', episodes_per_file=None, chunks_size=1000, image_cameras=(), seed=0,
                     tasks=None)->dict:
    """Write a LeRobot v3.0 dataset under `root` (created; must not hold a dataset) and return its ground truth:
    {'episodes', 'frames', 'lengths', 'cameras' ({key: [H, W]}, video and image keys), 'video_keys', 'image_keys',
    'codec' (PyAV encoder used), 'actions' / 'states' (lists of (T, D) float32), 'tasks' (per episode),
    'task_list' (task_index order), 'fps', 'data_files', 'video_files' ({key: [relative paths]})}.
    Frames are not returned: regenerate them with `make_frames(seed, name, episode, T, H, W)`."""
    root = Path(root)
    if (root / 'meta/info.json').exists(): raise FileExistsError(f'{root} already holds a dataset')
    cameras = dict(DEFAULT_CAMERAS if cameras is None else cameras)
    image_cameras = list(image_cameras)
    n = int(n_episodes)
    if n < 1: raise ValueError('n_episodes must be >= 1')
    if lengths is None: lengths = np.random.default_rng([seed, 1]).integers(40, 80, n).tolist()
    lengths = [int(x) for x in lengths]
    if len(lengths) != n or min(lengths) < 1: raise ValueError(f'need {n} positive lengths, got {lengths}')
    per_file = n if episodes_per_file is None else int(episodes_per_file)
    if per_file < 1 or chunks_size < 1: raise ValueError('episodes_per_file and chunks_size must be >= 1')
    fps = int(fps)
    task_pool = list(DEFAULT_TASKS if tasks is None else tasks)
    ep_tasks = [task_pool[e % len(task_pool)] for e in range(n)]
    task_list = list(dict.fromkeys(ep_tasks))
    vid = {f'observation.images.{c}': tuple(hw) for c, hw in cameras.items() if c not in image_cameras}
    img = {f'observation.images.{c}': tuple(cameras.get(c, DEFAULT_IMAGE_SIZE)) for c in image_cameras}
    short = {f'observation.images.{c}': c for c in list(cameras) + image_cameras}
    for k, (H, W) in {**vid, **img}.items():
        if H % 2 or W % 2 or H < 2 or W < 2: raise ValueError(f'{k}: frame size {(H, W)} must be even (yuv420p)')
    used = pick_codec(codec) if vid else None

    # ---- features (user features first, then lerobot's DEFAULT_FEATURES)
    features = {'action': {'dtype': 'float32', 'shape': [action_dim], 'names': [f'joint_{i}.pos' for i in range(action_dim)]},
                'observation.state': {'dtype': 'float32', 'shape': [state_dim],
                                      'names': [f'joint_{i}.pos' for i in range(state_dim)]}}
    for k, (H, W) in vid.items(): features[k] = {'dtype': 'video', 'shape': [H, W, 3], 'names': ['height', 'width', 'channels']}
    for k, (H, W) in img.items(): features[k] = {'dtype': 'image', 'shape': [H, W, 3], 'names': ['height', 'width', 'channels']}
    for k in INDEX_FEATURES: features[k] = {'dtype': 'float32' if k == 'timestamp' else 'int64', 'shape': [1], 'names': None}

    slots = _file_slots(n, per_file, chunks_size)
    starts = np.concatenate([[0], np.cumsum(lengths)]).astype(int)
    vecs = [_vectors(seed, e, lengths[e], action_dim, state_dim) for e in range(n)]
    ep_stats = [dict() for _ in range(n)]
    for e in range(n):
        ep_stats[e]['action'] = _vector_stats(vecs[e][0])
        ep_stats[e]['observation.state'] = _vector_stats(vecs[e][1])

    # ---- videos: one encoder per (key, file); each episode starts on a forced key frame
    video_meta = [dict() for _ in range(n)]
    video_files = {k: [] for k in vid}
    svt_log = os.environ.get('SVT_LOG')
    os.environ['SVT_LOG'] = svt_log or '1'   # SVT-AV1 prints its banner to stderr unless told not to
    try:
        for k, (H, W) in vid.items():
            e = 0
            while e < n:
                group = [i for i in range(e, n) if slots[i] == slots[e]]
                ci, fi = slots[e]
                rel = VIDEO_PATH.format(video_key=k, chunk_index=ci, file_index=fi)
                path = root / rel
                path.parent.mkdir(parents=True, exist_ok=True)
                out, st = _open_encoder(path, used, fps, H, W)
                pts = 0
                with out:
                    for i in group:
                        frames = make_frames(seed, short[k], i, lengths[i], H, W)
                        ep_stats[i][k] = _image_stats(frames)
                        video_meta[i].update({f'videos/{k}/chunk_index': ci, f'videos/{k}/file_index': fi,
                                              f'videos/{k}/from_timestamp': pts / fps,
                                              f'videos/{k}/to_timestamp': (pts + len(frames)) / fps})
                        for j, fr in enumerate(frames):
                            vf = av.VideoFrame.from_ndarray(fr, format='rgb24')
                            vf.pts, vf.time_base = pts, Fraction(1, fps)
                            if j == 0: vf.pict_type = av.video.frame.PictureType.I
                            for p in st.encode(vf): out.mux(p)
                            pts += 1
                    for p in st.encode(): out.mux(p)
                video_files[k].append(rel)
                e = group[-1] + 1
    finally:
        if svt_log is None: os.environ.pop('SVT_LOG', None)
        else: os.environ['SVT_LOG'] = svt_log
    for k in vid:
        features[k]['info'] = _video_info(root / video_files[k][0], fps)

    # ---- data parquet: HF-datasets columns, one row group per episode
    fsl = lambda D: pa.list_(pa.field('item', pa.float32()), D)
    img_type = pa.struct([('bytes', pa.binary()), ('path', pa.string())])
    cols = {'action': ('float32', action_dim), 'observation.state': ('float32', state_dim), **{k: 'image' for k in img},
            'timestamp': 'float32', 'frame_index': 'int64', 'episode_index': 'int64', 'index': 'int64', 'task_index': 'int64'}
    schema = pa.schema([('action', fsl(action_dim)), ('observation.state', fsl(state_dim)), *[(k, img_type) for k in img],
                        ('timestamp', pa.float32()), ('frame_index', pa.int64()), ('episode_index', pa.int64()),
                        ('index', pa.int64()), ('task_index', pa.int64())],
                       metadata=_hf_metadata(cols, f'{zlib.crc32(repr((seed, lengths)).encode()):016x}'))
    data_files, writer, wslot = [], None, None
    try:
        for e in range(n):
            T, (act, sta) = lengths[e], vecs[e]
            fidx = np.arange(T, dtype=np.int64)
            ts = fidx / fps                               # lerobot: frame_index / fps (python float -> float64)
            tidx = np.full(T, task_list.index(ep_tasks[e]), np.int64)
            arrays = [pa.FixedSizeListArray.from_arrays(pa.array(act.reshape(-1)), type=fsl(action_dim)),
                      pa.FixedSizeListArray.from_arrays(pa.array(sta.reshape(-1)), type=fsl(state_dim))]
            for k, (H, W) in img.items():
                frames = make_frames(seed, short[k], e, T, H, W)
                ep_stats[e][k] = _image_stats(frames)
                arrays.append(pa.StructArray.from_arrays(
                    [pa.array([_png(f) for f in frames], pa.binary()),
                     pa.array([f'frame-{j:06d}.png' for j in range(T)], pa.string())], fields=list(img_type)))
            idx = np.arange(starts[e], starts[e] + T, dtype=np.int64)
            arrays += [pa.array(ts.astype(np.float32)), pa.array(fidx), pa.array(np.full(T, e, np.int64)), pa.array(idx),
                       pa.array(tidx)]
            for name, a in zip(INDEX_FEATURES, [ts, fidx, np.full(T, e, np.int64), idx, tidx]):
                ep_stats[e][name] = _vector_stats(a)
            if slots[e] != wslot:
                if writer: writer.close()
                rel = DATA_PATH.format(chunk_index=slots[e][0], file_index=slots[e][1])
                (root / rel).parent.mkdir(parents=True, exist_ok=True)
                writer, wslot = pq.ParquetWriter(root / rel, schema=schema, compression='snappy', use_dictionary=True), slots[e]
                data_files.append(rel)
            writer.write_table(pa.Table.from_arrays(arrays, schema=schema))
    finally:
        if writer: writer.close()

    # ---- meta/episodes: rows as lerobot's save_episode dict, flushed every META_BUFFER episodes
    order = ['action', 'observation.state', *vid, *img, *INDEX_FEATURES]
    rows = []
    for e in range(n):
        r = {'episode_index': e, 'tasks': [ep_tasks[e]], 'length': lengths[e],
             'data/chunk_index': slots[e][0], 'data/file_index': slots[e][1],
             'dataset_from_index': int(starts[e]), 'dataset_to_index': int(starts[e + 1]), **video_meta[e]}
        for f in order:
            for s, v in ep_stats[e][f].items(): r[f'stats/{f}/{s}'] = _tolist(v)
        r['meta/episodes/chunk_index'], r['meta/episodes/file_index'] = 0, 0
        rows.append(r)
    ep_path = root / EPISODES_PATH.format(chunk_index=0, file_index=0)
    ep_path.parent.mkdir(parents=True, exist_ok=True)
    ep_writer = None
    for b in range(0, n, META_BUFFER):
        batch = rows[b:b + META_BUFFER]
        t = pa.Table.from_pydict({k: [r[k] for r in batch] for k in batch[0]})
        t = t.cast(pa.schema([pa.field(f.name, _item_lists(f.type)) for f in t.schema]))
        if ep_writer is None: ep_writer = pq.ParquetWriter(ep_path, schema=t.schema, compression='snappy', use_dictionary=True)
        ep_writer.write_table(t.cast(ep_writer.schema))
    ep_writer.close()

    # ---- tasks, stats, info
    pq.write_table(_tasks_table(task_list), root / TASKS_PATH, compression='snappy')
    stats = {f: {s: _tolist(v) for s, v in _aggregate([ep_stats[e][f] for e in range(n)]).items()} for f in order}
    _write_json(stats, root / 'meta/stats.json')
    info = {'codebase_version': CODEBASE_VERSION, 'robot_type': ROBOT_TYPE, 'total_episodes': n,
            'total_frames': int(starts[-1]), 'total_tasks': len(task_list), 'chunks_size': int(chunks_size),
            'data_files_size_in_mb': DATA_FILES_SIZE_IN_MB, 'video_files_size_in_mb': VIDEO_FILES_SIZE_IN_MB,
            'fps': fps, 'splits': {'train': f'0:{n}'}, 'data_path': DATA_PATH,
            'video_path': VIDEO_PATH if vid else None, 'features': features}
    _write_json(info, root / 'meta/info.json')

    return {'episodes': n, 'frames': int(starts[-1]), 'lengths': lengths,
            'cameras': {k: [int(H), int(W)] for k, (H, W) in {**vid, **img}.items()},
            'video_keys': list(vid), 'image_keys': list(img), 'codec': used,
            'actions': [v[0] for v in vecs], 'states': [v[1] for v in vecs], 'tasks': ep_tasks, 'task_list': task_list,
            'fps': fps, 'data_files': data_files, 'video_files': video_files}


if __name__ == '__main__':   # python tests/lerobot_v3.py DIR: a 5-episode, two-camera (96x128, AV1) LeRobot v3.0 dataset at DIR
    import sys
    if len(sys.argv) != 2: sys.exit('usage: python tests/lerobot_v3.py DIR')
    r = write_lerobot_v3(sys.argv[1])
    print(f"{sys.argv[1]}: {r['episodes']} episodes, {r['frames']} frames, cameras {r['cameras']}, codec {r['codec']}")
