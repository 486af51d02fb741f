"Simulated environments; importing this package registers `playworld/Tabletop-v0` and `playworld/MetaWorld-v0` with gymnasium."
from .tabletop import TabletopEnv, register_envs
