# imagine the first successful lift attempt of STORE from its first frames and show the model's own track maps beside its RGB and the real frames.
# Usage: python tracks_figure.py MODEL STORE OUT.png [clean]  (clean: each track map re-drawn as one bump at its peak after every frame)
import sys, numpy as np, torch
from playworld.wm.model import load_world_model, with_tracks, sample_frames, model_episode
from playworld.core import to_model, to_frames
from playworld.data.store import EpisodeStore
from playworld.data.windows import canvas_tracks, track_maps
import matplotlib; matplotlib.use('Agg'); import matplotlib.pyplot as plt
wm = load_world_model(sys.argv[1]); st = EpisodeStore(sys.argv[2]); out = sys.argv[3]; CLEAN = len(sys.argv) > 4 and sys.argv[4] == 'clean'
def clean(x):  # (B, C, H, W): re-render each track map as one bump at its peak (per view), none where the peak is below 0
    B, C, H, W = x.shape; V = 2; w = W // V; m = x[:, 3:].unflatten(-1, (V, w))            # (B, M, H, V, w)
    m = m.permute(0, 3, 1, 2, 4).flatten(-2)                                                   # (B, V, M, H*w)
    pk, idx = m.max(-1); yx = torch.stack([idx // w, idx % w], -1).float(); yx[pk < 0] = float('nan')
    return torch.cat([x[:, :3], torch.from_numpy(track_maps(yx.numpy(), H, w)).to(x)], 1)

i = next(i for i in range(len(st)) if st.load(i).instruction.startswith('lift') and st.load(i).success)
e = model_episode(st.load(i), wm); n = wm.config.n_ctx; T = len(e)
ctx = with_tracks(wm, to_model(torch.from_numpy(e.frames[None, :n]))); acts = torch.from_numpy(e.actions[None])
g = torch.Generator().manual_seed(0); fr = [ctx[:, j] for j in range(n)]
for t in range(n, T):
    c = torch.stack(fr[-n:], 1); nxt = sample_frames(wm, c, acts[:, t - n:t], None, g)[:, 0]; fr.append(clean(nxt) if CLEAN else nxt)
F = torch.stack(fr, 1)[0]                                             # (T, C, H, W)
rgb = to_frames(F[:, :3]).numpy(); tr = ((F[:, 3:].clamp(-1, 1) + 1) / 2).permute(0, 2, 3, 1).numpy()   # red, green, blue maps as RGB
real_tr = (track_maps(canvas_tracks(e.frames, 2), 64, 64) + 1) / 2                        # (T, M, H, W)
cols = list(range(0, T, 6)); fig, ax = plt.subplots(4, len(cols), figsize=(2 * len(cols), 4.6))
for k, t in enumerate(cols):
    for r, im in enumerate((e.frames[t], real_tr[t].transpose(1, 2, 0), rgb[t], tr[t])): ax[r, k].imshow(im); ax[r, k].axis('off')
    ax[0, k].set_title(str(t), fontsize=8)
for r, name in enumerate(('real', 'real tracks', 'imagined', 'imagined tracks')): ax[r, 0].text(-8, 32, name, rotation=90, va='center', ha='right', fontsize=8)
fig.suptitle(f'{e.instruction} (attempt {i}, success {e.success})', fontsize=9); fig.tight_layout(); fig.savefig(out, dpi=80)
# track error of the task block: imagined track peak vs real track centroid, per view, by horizon
print('attempt', i)
