// Research at scale: parameter sweeps, walk-forward analysis, overfitting statistics.
