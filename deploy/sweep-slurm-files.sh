#!/bin/bash
# A sweep over a large catalogue split by its files: 50 Slurm array tasks, each reading only its fiftieth of the
# symbols (whole symbols, cut where the bars balance) and running every configuration on them
# (docs/research.md, "Shards by files").
#
#   sbatch deploy/sweep-slurm-files.sh
#   sbatch --dependency=afterok:<jobid> --wrap 'ibtrader optimize merge results/files-* --out results/merged'
#
# Each task writes results/files-K/books/ID.bin (each configuration's pooled book of its symbols) and then
# shard.json, which vouches for every book by length and digest; the merge sums the books and gives the single run's
# results.csv and best.json byte for byte. A requeued task rewrites the same bytes. Exit 42: every try would fail the
# same (the configuration, the catalogue, more tasks than symbols): do not requeue; any other failure is worth a retry.
#SBATCH --job-name=sweep-files
#SBATCH --array=0-49%25
#SBATCH --cpus-per-task=2
#SBATCH --mem=4G
#SBATCH --requeue
#SBATCH --output=logs/sweep-files-%A_%a.log
set -euo pipefail
mkdir -p results logs
ibtrader optimize --config sweep-files.yaml --shard auto --shard-unit files --jobs "$SLURM_CPUS_PER_TASK" \
  --no-progress --out 'results/files-{shard}'
