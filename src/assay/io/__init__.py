"""Readers and writers: TREC text, CSV/TSV, Parquet, JSON Lines, data frames and dicts."""
