"""neverstore."""
