"""Speed and memory measurements: ``python -m benchmarks.<name>`` prints a short table."""
