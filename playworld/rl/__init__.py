"""Reinforcement learning inside the world model: a diffusion policy, GRPO and DSRL."""
