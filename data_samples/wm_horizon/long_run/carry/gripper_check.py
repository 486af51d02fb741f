"""Does the model follow the gripper while it drops the block? For each window cut at an attempt's first hold (as
`held_windows`: off 0 = the context ends at the frame the grasp step starts from, i.e. `--from grasp`; off 4 = all 4
context frames show the block held, `--from held`), the fraction of the real displacement over 16 frames that the
imagined block and the imagined gripper (the judge's dark-pixel 'gripper' mask) make (median over windows), and the
gripper's centroid error at h = 16 against the real gripper's motion. Usage: MUJOCO_GL=egl python gripper_check.py 96 [RUN/wm_horizon/arms/best_long/model]
(prints; its output on 2026-12-07 is gripper_check.txt). In the front view the dark-pixel mask also takes in shadows and the arm, so only the top view reads the gripper cleanly."""
import sys, json, numpy as np
from playworld.eval.judge import fresh_attempts, colour_masks
from playworld.eval.horizon import wm_horizon_eval, held_windows
from playworld.envs.tabletop import parse_instruction
from playworld.wm.model import load_world_model
N, H, n_ctx = int(sys.argv[1]), 16, 4
eps = fresh_attempts(N, 4500001, cameras=('top', 'front'))
def cent(fr, key):
    m = colour_masks(fr)[key]; n = m.sum((1, 2)); H_, W_ = m.shape[1:]
    with np.errstate(invalid='ignore', divide='ignore'):
        return np.stack([m.sum(2) @ np.arange(H_), m.sum(1) @ np.arange(W_)], 1) / n[:, None], n
for off, at in ((0, 'grasp'), (4, 'held')):
    cut = held_windows(eps, n_ctx, H, at)   # off: the context's last frame is the first held frame - 1 + off
    for name, d in [('shipped', 'data_samples/tabletop_wm_2cam'), ('best_long', sys.argv[2] if len(sys.argv) > 2 else 'RUN/wm_horizon/arms/best_long/model')]:
        wm = load_world_model(d)
        im = wm_horizon_eval(wm, cut, None, horizons=(4, 8, 16), seed=4500001, return_imagined=True)['imagined']
        for cam in ('observation.images.top', 'observation.images.front'):
            fr_b, fr_g, ge, gs = [], [], [], []
            for r, q in zip(cut, im):
                blk = parse_instruction(r.instruction).obj
                for key, acc in ((blk, fr_b), ('gripper', fr_g)):
                    ry, rn = cent(r.cameras[cam], key); qy, qn = cent(q.cameras[cam], key)
                    d_real = ry[-1] - ry[n_ctx - 1]; d_im = qy[-1] - ry[n_ctx - 1]
                    if rn[-1] >= 10 and qn[-1] >= 10 and rn[n_ctx - 1] >= 10 and np.linalg.norm(d_real) > 2:
                        acc.append(float(d_im @ d_real / (d_real @ d_real)))
                        if key == 'gripper': ge.append(np.linalg.norm(qy[-1] - ry[-1])); gs.append(np.linalg.norm(d_real))
            print(f'off{off} {name:9s} {cam[19:]:5s} block carried frac median {np.median(fr_b):.2f} mean {np.mean(fr_b):.2f} (n {len(fr_b)}) | gripper frac median {np.median(fr_g):.2f} (n {len(fr_g)}) err {np.mean(ge):.1f} still {np.mean(gs):.1f}', flush=True)
