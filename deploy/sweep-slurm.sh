#!/bin/bash
# A 1,000-shard sweep as a Slurm job array of 100 tasks, 10 shards each (docs/research.md, "Beyond one machine").
#
#   sbatch deploy/sweep-slurm.sh
#   sbatch --dependency=afterok:<jobid> --wrap 'ibtrader optimize merge results/shard-* --out results/merged'
#
# `--shard auto` reads SLURM_ARRAY_TASK_ID (minus SLURM_ARRAY_TASK_MIN) and SLURM_ARRAY_TASK_COUNT; with
# `--shards-per-task 10` task K runs shards 10K … 10K+9 of 1,000, each into results/shard-{shard}, so sites that cap
# arrays (MaxArraySize) or submissions (MaxJobPU) still run the whole sweep. `%50` runs at most 50 tasks at once.
# A requeued task rewrites its folders with the same bytes. Exit 42 means every try would fail the same (the
# configuration, the data, the shard): do not requeue it; any other failure is worth a retry.
#SBATCH --job-name=sweep
#SBATCH --array=0-99%50
#SBATCH --cpus-per-task=2
#SBATCH --mem=512M
#SBATCH --requeue
#SBATCH --output=logs/sweep-%A_%a.log
set -euo pipefail
mkdir -p results logs
ibtrader optimize --config sweep.yaml --shard auto --shards-per-task 10 --jobs "$SLURM_CPUS_PER_TASK" --no-progress \
  --out 'results/shard-{shard}'
