"Autonomous play: proposer, noisy executor, reset-free play collection and expert demos."
