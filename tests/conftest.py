import os
os.environ.setdefault('MUJOCO_GL', 'egl')
for k, v in dict(HF_HUB_OFFLINE='1', HF_HUB_DISABLE_TELEMETRY='1', GRADIO_ANALYTICS_ENABLED='False').items():
    os.environ.setdefault(k, v)
