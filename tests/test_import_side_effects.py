"""Importing the library changes nothing: no environment variable set, mujoco not imported (MuJoCo reads MUJOCO_GL once,
at its own import, so that must wait for the first env), no thread started; the gymnasium ids are known by name."""
import json, subprocess, sys

CODE = r'''
import os, sys, threading, json
import gymnasium, torch, diffusers, safetensors, pyarrow, av   # third-party libraries set variables of their own on import
before = dict(os.environ)
import playworld.envs.tabletop, playworld.envs.cloth, playworld.ui.teleop, playworld.wm.env, playworld.eval.judge
import gymnasium as gym
out = dict(env_changed=sorted(k for k in set(os.environ) | set(before) if os.environ.get(k) != before.get(k)),
           mujoco_imported='mujoco' in sys.modules, threads=threading.active_count(),
           ids=sorted(k for k in gym.registry if k.startswith('playworld/')))
e = playworld.envs.tabletop.TabletopEnv(size=32); e.reset(seed=0)
out.update(gl=os.environ.get('MUJOCO_GL'), mujoco_after='mujoco' in sys.modules)
print(json.dumps(out))
'''

def test_imports_have_no_side_effects():
    env = {k: v for k, v in __import__('os').environ.items() if k not in ('MUJOCO_GL', 'GRADIO_ANALYTICS_ENABLED')}
    r = subprocess.run([sys.executable, '-c', CODE], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out['env_changed'] == [], out
    assert not out['mujoco_imported'], out
    assert out['threads'] == 1, out
    assert out['ids'] == ['playworld/ClothTabletop-v0', 'playworld/MetaWorld-v0', 'playworld/Tabletop-v0'], out
    assert out['gl'] == 'egl' and out['mujoco_after'], out    # the first env chose the backend, then imported mujoco
