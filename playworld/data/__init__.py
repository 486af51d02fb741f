"Episode data: the LeRobot v3.0 store, importers and training windows."
