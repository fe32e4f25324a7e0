"""Benchmarks: runnable scripts that print figures (README, Benchmarks)."""
