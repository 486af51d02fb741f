"""Does the model carry the task block's own track map? Imagine held-out attempts from their first frames with a
track model and read the task block's track-map peak per view, against the real block's position (the hindsight track
of the real frames) and against leaving the block where the context last saw it. Usage: track_check.py MODEL STORE OUT.json"""
import sys, json, numpy as np, torch
from playworld.wm.model import load_world_model, with_tracks, sample_frames, model_episode
from playworld.core import to_model, split_views
from playworld.data.store import EpisodeStore
from playworld.data.windows import canvas_tracks
from playworld.envs.tabletop import BLOCKS, parse_instruction
wm = load_world_model(sys.argv[1]); st = EpisodeStore(sys.argv[2]); n = wm.config.n_ctx; V = 2
eps = [model_episode(st.load(i), wm) for i in range(len(st))]
g = torch.Generator().manual_seed(0)
ctx = with_tracks(wm, to_model(torch.from_numpy(np.stack([e.frames[:n] for e in eps]))))
acts = torch.from_numpy(np.stack([e.actions for e in eps])); T = acts.shape[1]
fr = [ctx[:, j] for j in range(n)]
with torch.no_grad():
    for t in range(n, T): fr.append(sample_frames(wm, torch.stack(fr[-n:], 1), acts[:, t - n:t], None, g)[:, 0])
F = torch.stack(fr, 1)                                                # (B, T, C, H, W)
H, W = F.shape[-2:]; w = W // V
m = F[:, :, 3:].unflatten(-1, (V, w)).permute(0, 1, 4, 2, 3, 5).flatten(-2)   # (B, T, V, M, H*w)
pk, idx = m.max(-1); yx = torch.stack([idx // w, idx % w], -1).float().numpy()  # (B, T, V, M, 2) peak of each track map
res = {h: dict(model=[], stay=[], moved=[]) for h in (8, 16, 32, 'end')}
for b, e in enumerate(eps):
    j = BLOCKS.index(parse_instruction(e.instruction).obj)
    real = canvas_tracks(e.frames, V)[:, :, j]                            # (T, V, 2) hindsight track of the real block
    for h in res:
        t = T - 1 if h == 'end' else n - 1 + h
        for v in range(V):
            if np.isnan(real[t, v]).any(): continue
            res[h]['model'].append(float(np.linalg.norm(yx[b, t, v, j] - real[t, v])))
            res[h]['stay'].append(float(np.linalg.norm(real[n - 1, v] - real[t, v]))); res[h]['moved'].append(res[h]['stay'][-1] > 3)
mv = lambda r, k: float(np.mean(np.array(r[k])[np.array(r['moved'], bool)])) if any(r['moved']) else None
out = {str(h): dict(track_err_px=float(np.mean(r['model'])), stay_err_px=float(np.mean(r['stay'])), n=len(r['model']),
                    moved_track_err_px=mv(r, 'model'), moved_stay_err_px=mv(r, 'stay'), n_moved=int(np.sum(r['moved']))) for h, r in res.items()}
out['episodes'] = len(eps); out['model'] = sys.argv[1]
json.dump(out, open(sys.argv[3], 'w'), indent=1); print(json.dumps(out))
