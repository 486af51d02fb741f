import os
os.environ.setdefault('MUJOCO_GL', 'egl')
for k, v in dict(HF_HUB_OFFLINE='1', HF_HUB_DISABLE_TELEMETRY='1', GRADIO_ANALYTICS_ENABLED='False').items():
    os.environ.setdefault(k, v)
# under `pytest -n 2` (make test) each worker, and every subprocess it starts, gets one thread: two workers then fill
# the two cores, where two 2-thread workers oversubscribe them (measured: 58 CPU-minutes for the suite instead of 37)
if os.environ.get('PYTEST_XDIST_WORKER'):
    for k in ('OMP_NUM_THREADS', 'MKL_NUM_THREADS', 'OPENBLAS_NUM_THREADS'): os.environ[k] = '1'
    import torch
    torch.set_num_threads(1)
