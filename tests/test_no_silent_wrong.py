"""No silent wrong answers: one PSNR/SSIM for every picture form, strict-JSON metrics with reasons for undefined values,
checkpoint errors that name the file, and video the store cannot hold faithfully (more than 8 bits, one channel, alpha,
variable frame rate) refused by every importer before anything is written."""
import json, shutil
from pathlib import Path
import numpy as np
import pytest
import torch


# -- image metrics: one definition, the same value for the same picture in every form --------------------------------
def _pair():
    rng = np.random.default_rng(1)
    a = rng.integers(0, 256, (24, 24, 3), dtype=np.uint8)
    b = np.clip(a.astype(int) + rng.integers(-40, 40, a.shape), 0, 255).astype(np.uint8)
    return a, b

def test_psnr_ssim_same_value_in_every_form():
    from skimage.metrics import peak_signal_noise_ratio, structural_similarity
    from playworld.eval.replay import psnr, ssim            # what the evaluation and the scrubber call
    from playworld.data.store import psnr as store_psnr     # what the data layer calls
    a, b = _pair()
    p0, s0 = psnr(a, b), ssim(a, b)
    assert abs(p0 - peak_signal_noise_ratio(a, b, data_range=255)) < 1e-9 and abs(store_psnr(a, b) - p0) < 1e-9
    assert abs(s0 - structural_similarity(a, b, channel_axis=-1, data_range=255)) < 1e-9
    f01, fpm = (lambda x: x.astype(np.float32) / 255), (lambda x: x.astype(np.float32) / 127.5 - 1)
    chw = lambda x: np.ascontiguousarray(np.moveaxis(x, -1, 0))
    for x, y, r in [(f01(a), f01(b), (0, 1)), (fpm(a), fpm(b), (-1, 1)), (chw(a), chw(b), None),
                    (torch.from_numpy(chw(f01(a))), torch.from_numpy(chw(f01(b))), (0, 1))]:
        assert abs(psnr(x, y, value_range=r) - p0) < 1e-6 and abs(ssim(x, y, value_range=r) - s0) < 1e-6, (x.dtype, r)

def test_metrics_refuse_ambiguous_input():
    from playworld.eval.replay import psnr, ssim
    from playworld.core import PSNR_CAP
    a, b = _pair()
    for bad, want in [((a / 255, b / 255, None), 'value_range'), ((a[..., 0], b[..., 0], None), '(H, W, 3) or (3, H, W)'),
                      ((a, b[:20], None), 'differ in shape'), ((a * 1.0, b * 1.0, (0, 1)), 'outside value_range')]:
        for f in (psnr, ssim):
            with pytest.raises(ValueError, match=None) as e: f(*bad[:2], value_range=bad[2])
            assert want in str(e.value), (f.__name__, want, str(e.value))
    assert psnr(a, a) == psnr(a / 255, a / 255, value_range=(0, 1)) == PSNR_CAP   # identical frames: the cap, never inf
    from playworld.data.store import psnr as store_psnr
    assert store_psnr(a, a) == PSNR_CAP


# -- checkpoint loading names the file -------------------------------------------------------------------------------
@pytest.fixture(scope='module')
def train_ckpt(tmp_path_factory):
    "A training checkpoint of the smallest world model (16 px, 2-d actions): folder and a fresh-state factory."
    from diffusers.optimization import get_cosine_schedule_with_warmup
    from diffusers.training_utils import EMAModel
    from playworld.wm.model import ActionVideoDenoiser
    from playworld.wm.train import save_checkpoint
    def fresh():
        torch.manual_seed(0)
        m = ActionVideoDenoiser(size=16, n_ctx=2, action_dim=2, block_out_channels=(16, 16), norm_num_groups=4)
        opt = torch.optim.AdamW(m.parameters(), lr=1e-3); sch = get_cosine_schedule_with_warmup(opt, 1, 10)
        return m, EMAModel(m.parameters()), opt, sch
    ck = tmp_path_factory.mktemp('ck')/'checkpoint'
    m, ema, opt, sch = fresh(); save_checkpoint(ck, m, ema, opt, sch, 3, [[0, 1.0, 1e-3, 0.1]])
    return ck, fresh

CORRUPT = {'truncated': lambda f: f.write_bytes(f.read_bytes()[:len(f.read_bytes()) // 2]),
           'garbage': lambda f: f.write_bytes(b'\xff\xfe' * 40), 'missing': lambda f: f.unlink()}

@pytest.mark.parametrize('name', ['model.safetensors', 'ema.pt', 'optimizer.pt', 'lr_scheduler.pt', 'rng.safetensors', 'trainer.json'])
@pytest.mark.parametrize('how', list(CORRUPT))
def test_train_checkpoint_errors_name_the_file(train_ckpt, tmp_path, name, how):
    from playworld.wm.train import load_checkpoint
    src, fresh = train_ckpt
    ck = tmp_path/'checkpoint'; shutil.copytree(src, ck)
    assert load_checkpoint(ck, *fresh())[0] == 3
    CORRUPT[how](ck/name)
    with pytest.raises((ValueError, FileNotFoundError)) as e: load_checkpoint(ck, *fresh())
    msg = str(e.value)
    assert (str(ck/name) in msg or (how == 'missing' and name == 'trainer.json' and str(ck) in msg)), msg
    if how != 'missing': assert 'corrupt' in msg and 'earlier one' in msg, msg

def test_judge_and_policy_errors_name_the_file(tmp_path):
    from playworld.eval.judge import load_judge
    from playworld.rl.dsrl import load_noise_policy
    for load, files in ((load_judge, ('config.json', 'model.safetensors')), (load_noise_policy, ('config.json', 'model.safetensors'))):
        d = tmp_path/load.__name__; d.mkdir()
        for f in files: (d/f).write_bytes(b'\xff' * 64)          # both garbage: the first one read is named
        with pytest.raises(ValueError) as e: load(d)
        assert str(d/'config.json') in str(e.value) and 'corrupt' in str(e.value), str(e.value)


# -- metrics files are strict JSON; an undefined metric is null beside '<key>_reason' ---------------------------------
def test_constant_prediction_policy_eval_is_strict_json(tmp_path):
    from playworld.eval.policy import _summary, write_results
    from playworld.data.events import MODES
    rng = np.random.default_rng(0)
    P, N = 3, 6
    ys = rng.random((P, N)) < np.array([[0.2], [0.5], [0.9]])          # real outcomes differ by policy
    yi = np.ones((P, N), bool)                                          # the world model + judge say "success" for all
    modes = [MODES[0]] * (P * N)
    res = _summary([f'p{k}' for k in range(P)], ys, yi, ys.copy(), modes, modes, modes, np.ones((P, N)), 50, {})
    txt = write_results(res, tmp_path).read_text()
    assert 'NaN' not in txt and 'Infinity' not in txt, txt[:400]
    d = json.loads(txt)
    assert d['pearson'] is None and d['pearson_reason'] == 'predictions are constant', {k: d.get(k) for k in ('pearson', 'pearson_reason')}
    assert d['spearman'] is None and d['spearman_reason'] == 'predictions are constant'
    assert d['pearson_ci'] == [None, None] and 'every bootstrap resample' in d['pearson_ci_reason']
    assert d['mmrv'] is not None and 'mmrv_reason' not in d

def test_equal_real_rates_make_mmrv_undefined_not_perfect(tmp_path):
    """Every policy really fails (a toy run): MMRV's formula gives 0 for any prediction, which the report showed as a bold,
    "perfect" 0.00. It is null with the reason; modes that never happen or are never predicted have no recall / precision."""
    from playworld.eval.policy import _summary, write_results
    from playworld.data.events import MODES
    P, N = 4, 3
    ys = np.zeros((P, N), bool); yi = np.eye(P, N, dtype=bool)               # real: all fail; imagined: some succeed
    real_modes, imag_modes = ['other'] * (P * N), ['other' if not x else 'success' for x in yi.ravel()]
    d = json.loads(write_results(_summary([f'p{k}' for k in range(P)], ys, yi, ys.copy(), real_modes, imag_modes, real_modes,
                                          np.ones((P, N)), 50, {}), tmp_path).read_text())
    assert d['mmrv'] is None and d['mmrv_reason'] == 'real rates are constant' and d['mmrv_ci'] == [None, None]
    assert d['judge_on_real']['mmrv'] is None and d['judge_on_real']['mmrv_reason'] == 'predictions and real rates are both constant'
    pr = d['mode_precision_recall']
    assert pr['success'] == dict(precision=0.0, recall=None, support=0, predicted=3, recall_reason='never happens in the real episodes')
    assert pr['topple']['precision'] is None and pr['topple']['precision_reason'] == 'never predicted' and pr['topple']['recall'] is None
    assert pr['other']['precision'] == 1.0 and pr['other']['recall'] == 0.75
    assert all(len(repr(r['tv_distance'])) <= 14 for r in d['per_policy']), [r['tv_distance'] for r in d['per_policy']]   # no 0.999999999994

def test_judge_balanced_accuracy_one_class_has_reason():
    from playworld.eval.judge import _rates
    r = _rates(np.ones(4, bool), np.array([1, 0, 1, 1], bool))
    assert r['balanced_accuracy'] is None and r['balanced_accuracy_reason'] == 'the labels hold one class only (successes)'
    assert r['fpr'] is None and r['fpr_reason'] == 'no failures in the labels'


# -- video the store cannot hold faithfully is refused by every importer before anything is written ------------------
def _video(p, pix_fmt, pts, codec='libx264', tb=None, size=16):
    "A video whose frame k has grey level 40 k (or its pts, scaled, for timing tests)."
    import av
    with av.open(str(p), 'w') as c:
        s = c.add_stream(codec, rate=10); s.width = s.height = size; s.pix_fmt = pix_fmt
        if tb: s.codec_context.time_base = s.time_base = tb
        for k, t in enumerate(pts):
            f = av.VideoFrame.from_ndarray(np.full((size, size, 3), 40 * k % 256, np.uint8), format='rgb24').reformat(format=pix_fmt)
            f.pts = t
            for q in s.encode(f): c.mux(q)
        for q in s.encode(): c.mux(q)
    return p

from fractions import Fraction
BAD_VIDEOS = {   # name -> (pix_fmt, codec, pts, time_base, words of the error)
    'gray': ('gray', 'png', range(5), None, "pix_fmt 'gray': it has one channel"),
    'rgba': ('rgba', 'png', range(5), None, "pix_fmt 'rgba': it has an alpha channel"),
    'yuv10': ('yuv420p10le', 'libx264', range(5), None, "pix_fmt 'yuv420p10le': its samples are 10-bit"),
    'gray16': ('gray16be', 'png', range(5), None, "pix_fmt 'gray16be'"),
    'vfr': ('yuv420p', 'libx264', [0, 100, 150, 600, 700], Fraction(1, 1000), 'variable frame rate'),
}

def _pair_dir(tmp_path, bad, ext='npz'):
    "A folder with one good and one bad <id>.mp4 + actions pair (5 frames each)."
    src = tmp_path/'src'; src.mkdir()
    _video(src/'a_good.mp4', 'yuv420p', range(5))
    pf, codec, pts, tb, _ = BAD_VIDEOS[bad]; _video(src/'b_bad.mp4', pf, pts, codec, tb)
    for k in ('a_good', 'b_bad'):
        if ext == 'npz': np.savez(src/f'{k}.npz', np.zeros((5, 7), np.float32))
        else: np.save(src/f'{k}.npy', np.zeros((5, 2), np.float32))
    return src

@pytest.mark.parametrize('bad', list(BAD_VIDEOS))
@pytest.mark.parametrize('importer', ['import_mp4_npz', 'import_video_actions', 'import_dataset'])
def test_importers_refuse_video_they_cannot_hold(tmp_path, bad, importer):
    from playworld.data import importers, sources
    src = _pair_dir(tmp_path, bad, 'npy' if importer == 'import_video_actions' else 'npz'); out = tmp_path/'out'
    run = {'import_mp4_npz': lambda: importers.import_mp4_npz(src, out, size=16, batch=1),
           'import_video_actions': lambda: importers.import_video_actions(src, out, size=16, batch=1),
           'import_dataset': lambda: sources.import_dataset(src, out, format='mp4-npz', batch=1)}[importer]
    with pytest.raises(ValueError) as e: run()
    assert 'b_bad.mp4' in str(e.value) and BAD_VIDEOS[bad][4] in str(e.value), str(e.value)
    assert not out.exists() or not any(p.is_file() for p in out.rglob('*')), sorted(out.rglob('*'))

def test_droid_import_refuses_vfr_before_writing(tmp_path):
    from playworld.data.importers import import_droid
    src = tmp_path/'droid'; shutil.copytree(Path(__file__).resolve().parents[1]/'data_samples'/'droid_sample', src)
    vids = sorted(src.rglob('*.mp4')); v = vids[-1]
    import av
    with av.open(str(v)) as c: s = c.streams.video[0]; h, w = s.height, s.width; n = sum(1 for q in c.demux(s) if q.size)
    pts = [int(1000 * (k / 5 + (0.15 if k % 2 else 0))) for k in range(n)]           # every other frame 150 ms late
    with av.open(str(v), 'w') as c:
        st = c.add_stream('libx264', rate=5); st.width, st.height, st.pix_fmt = w, h, 'yuv420p'; st.codec_context.time_base = st.time_base = Fraction(1, 1000)
        for k, t in enumerate(pts):
            f = av.VideoFrame.from_ndarray(np.zeros((h, w, 3), np.uint8), format='rgb24'); f.pts = t
            for q in st.encode(f): c.mux(q)
        for q in st.encode(): c.mux(q)
    out = tmp_path/'out'
    with pytest.raises(ValueError) as e: import_droid(src, out)
    assert str(v) in str(e.value) and 'variable frame rate' in str(e.value), str(e.value)
    assert not out.exists() or not any(p.is_file() for p in out.rglob('*'))
