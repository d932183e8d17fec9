"""The runner: TOML suites, targets, checks, samples, and the run document they produce."""
