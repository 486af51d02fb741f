"""Where is the block lost on the way to the grasp? For each of N held-out attempts with a hold (seed 4500001, as the
`--from grasp` windows), the model is given real context that ends LEAD frames before the grasp step starts (LEAD = 0 is
`--from grasp`), imagines the LEAD frames of approach and then 16 more, and the task block's carried fraction is read at
the 16th frame after the grasp, the same frame for every LEAD. Only attempts that admit the longest LEAD are used, so every
LEAD reads the same attempts. A fall with LEAD says the approach imagined in the model's own frames costs the grasp.

Usage: MUJOCO_GL=egl python lead_check.py OUT.json N MODEL [MODEL ...]   (its output on 2026-12-07 is lead_check.json / .txt)"""
import sys, json
from playworld.core import write_json
from playworld.eval.judge import fresh_attempts
from playworld.eval.horizon import wm_horizon_eval, held_windows
from playworld.wm.model import load_world_model, wm_cameras
LEADS, AFTER, MIN_HELD = (0, 4, 8, 16), 16, 8
out, N, models = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
wms = {m: load_world_model(m) for m in models}; first = next(iter(wms.values())); n = first.config.n_ctx
eps = fresh_attempts(N, 4500001, None, first.config.size, 60, False, wm_cameras(first))
def cut(e, lead): # the window whose context ends `lead` frames before the grasp step's start frame, to AFTER frames after it; None if it leaves the attempt
    w = held_windows([e], n, lead + AFTER, 'grasp', MIN_HELD, lead)
    return w[0] if w else None
keep = [e for e in eps if cut(e, max(LEADS)) is not None]
res = dict(attempts=len(keep), leads=list(LEADS), after=AFTER, seed=4500001, models={})
print(f"{len(keep)} of {len(eps)} attempts admit a lead of {max(LEADS)} frames; carried fraction {AFTER} frames after the grasp (top / front [95 % CI])")
for m, wm in wms.items():
    rows = {}
    for lead in LEADS:
        r = wm_horizon_eval(wm, [cut(e, lead) for e in keep], None, horizons=(lead + AFTER,), seed=4500001)['survival']['by_camera']
        rows[lead] = {c: dict(carried_frac=r[c][str(lead + AFTER)]['carried_frac'], ci=r[c][str(lead + AFTER)]['carried_frac_ci'],
                              centroid_err_px=r[c][str(lead + AFTER)]['centroid_err_px']) for c in ('top', 'front', 'all')}
        t, f = rows[lead]['top'], rows[lead]['front']
        print(f"{m}  lead {lead:2d}: {t['carried_frac']:.2f} [{t['ci'][0]:.2f}, {t['ci'][1]:.2f}] / {f['carried_frac']:.2f} [{f['ci'][0]:.2f}, {f['ci'][1]:.2f}]", flush=True)
    res['models'][m] = rows
write_json(out, res)
