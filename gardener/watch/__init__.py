"""``gardener watch``: an adapter that commits what agents and people write.

command   the click command (the CLI's registry names it by string)
watcher   the Watcher loop: watchdog events -> debounce -> Workspace.record, idle jobs
events    which paths and events matter; file signatures (pure)
schedule  Debouncer and Schedule: when to record, promote, prune, rescan (pure)
lock      one watcher per workspace (an flock in .git)
inotify   inotify's watch count and the advice at its limits
"""
