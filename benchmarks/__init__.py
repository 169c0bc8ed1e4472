"""`make bench`: how fast the parts of a run are (`python -m benchmarks.bench`). Kept beside the tests,
not in pbem: the wheel holds none of it."""
