"""Simulated environments. Importing this package registers the gymnasium ids `playworld/Tabletop-v0`,
`playworld/ClothTabletop-v0` and `playworld/MetaWorld-v0` (keyword `task`; needs `metaworld`) by name only: nothing
heavy is imported and no environment variable is touched until an env is made. gymnasium 1.x has no plugin entry
points, so from a fresh interpreter use its module prefix: `gym.make('playworld.envs:playworld/Tabletop-v0')`."""
import gymnasium as gym

ENV_IDS = {'playworld/Tabletop-v0': 'playworld.envs.tabletop:TabletopEnv',
           'playworld/ClothTabletop-v0': 'playworld.envs.cloth:ClothTabletopEnv',
           'playworld/MetaWorld-v0': 'playworld.envs.metaworld:MetaWorldEnv'}   # gymnasium id -> entry point

def register_envs()->list: # the ids registered by this call (those not registered before)
    "Register the workbench's envs with gymnasium by entry-point name (idempotent; imports no env module)."
    new = [k for k in ENV_IDS if k not in gym.registry]
    for k in new: gym.register(k, entry_point=ENV_IDS[k])
    return new

register_envs()
