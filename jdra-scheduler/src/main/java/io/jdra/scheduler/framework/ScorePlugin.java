package io.jdra.scheduler.framework;

import io.jdra.runtime.Ctx;
import java.util.List;

/**
 * Ranks the feasible nodes. {@link #score} returns a raw score per node; {@link #normalizeScore}
 * maps all of them into [0, {@link #MAX_NODE_SCORE}] in place. The framework multiplies by the
 * plugin's weight and sums over plugins.
 */
public interface ScorePlugin extends Plugin {
  long MAX_NODE_SCORE = 100;

  /** PreScore: Skip means this plugin does not score this pod. */
  default Status preScore(Ctx ctx, CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    return Status.success();
  }

  long score(Ctx ctx, CycleState state, PodInfo pod, NodeInfo node);

  /** Scores in the order of the nodes; null when the raw scores are already in range. */
  default void normalizeScore(CycleState state, PodInfo pod, long[] scores) {}

  /** Upstream helper.DefaultNormalizeScore: scale to the maximum, optionally reversed. */
  static void defaultNormalize(long[] scores, boolean reverse) {
    long max = 0;
    for (long s : scores) {
      max = Math.max(max, s);
    }
    if (max == 0) {
      if (reverse) {
        java.util.Arrays.fill(scores, MAX_NODE_SCORE);
      }
      return;
    }
    for (int i = 0; i < scores.length; i++) {
      long s = MAX_NODE_SCORE * scores[i] / max;
      scores[i] = reverse ? MAX_NODE_SCORE - s : s;
    }
  }
}
