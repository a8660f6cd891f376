"""`make bench`: latency and throughput of the tools over real HTTP (see bench/__main__.py)."""
