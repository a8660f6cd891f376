"""Settings modules: `base` (shared, read from the environment), `dev`, `test`, `production`."""
