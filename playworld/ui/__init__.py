"""Interactive tools: the rollout scrubber and coverage explorer (ipywidgets + plotly) and the Gradio teleop app."""
