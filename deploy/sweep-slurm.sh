#!/bin/bash
# A 1,000-shard sweep as a Slurm job array (docs/research.md, "Beyond one machine").
#
#   sbatch deploy/sweep-slurm.sh
#   sbatch --dependency=afterok:<jobid> --wrap 'ibtrader optimize merge results/shard-* --out results/merged'
#
# `--shard auto` reads SLURM_ARRAY_TASK_ID (minus SLURM_ARRAY_TASK_MIN) and SLURM_ARRAY_TASK_COUNT. A requeued task
# rewrites its own folder with the same bytes. `%50` runs at most 50 tasks at once.
#SBATCH --job-name=sweep
#SBATCH --array=0-999%50
#SBATCH --cpus-per-task=2
#SBATCH --mem=512M
#SBATCH --requeue
#SBATCH --output=logs/sweep-%A_%a.log
set -euo pipefail
mkdir -p results logs
ibtrader optimize --config sweep.yaml --shard auto --jobs "$SLURM_CPUS_PER_TASK" --no-progress \
  --out "results/shard-$SLURM_ARRAY_TASK_ID"
