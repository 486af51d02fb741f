"""Interactive tools: the rollout scrubber (ipywidgets + plotly) and the Gradio teleop app."""
