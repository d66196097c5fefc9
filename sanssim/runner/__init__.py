"""Batches of seeded games: seeding, chunking, executors, Parquet writing."""
