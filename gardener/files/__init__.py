"""A workspace's files: paths, reads, atomic writes, appends, the lock (no git here).

layout  note names and dates, the gardener's own paths, staying inside the workspace
read    UTF-8 reads byte for byte; many notes through one folder handle
atomic  atomic_write, replace_if_unchanged, stale temps, the state folder
append  append_entry: one entry onto a daily note under the file's lock
scrub   replace_carrying: rewrite a file others append to, carrying their lines over
lock    workspace_lock: the workspace's re-entrant lock in .git
flock   every file lock (flock, or portalocker without fcntl); pread and pwrite
"""
