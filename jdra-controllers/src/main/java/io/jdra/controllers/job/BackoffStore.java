package io.jdra.controllers.job;

import io.fabric8.kubernetes.api.model.Pod;
import io.jdra.runtime.clock.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Upstream's {@code backoffStore} (backoff_utils.go): per Job, the failures since the last success
 * and when the last one happened; a replacement pod is created only {@code 10 s * 2^(failures-1)}
 * (at most {@link #MAX_JOB_POD_FAILURE_BACKOFF}) after the last failure. In memory, as upstream: a
 * restarted controller starts without delays. Thread-safe.
 */
final class BackoffStore {
  /** Upstream's {@code DefaultJobPodFailureBackOff}. */
  static final Duration DEFAULT_JOB_POD_FAILURE_BACKOFF = Duration.ofSeconds(10);

  /** Upstream's {@code MaxJobPodFailureBackOff} (10 minutes since 1.29; 6 minutes before). */
  static final Duration MAX_JOB_POD_FAILURE_BACKOFF = Duration.ofMinutes(10);

  record Record(String key, int failuresAfterLastSuccess, Instant lastFailureTime) {
    /** How long to wait before creating pods, at {@code now}. */
    Duration remaining(Instant now) {
      if (failuresAfterLastSuccess == 0) {
        return Duration.ZERO;
      }
      Duration backoff = DEFAULT_JOB_POD_FAILURE_BACKOFF;
      for (int i = 1; i < failuresAfterLastSuccess; i++) {
        backoff = backoff.multipliedBy(2);
        if (backoff.compareTo(MAX_JOB_POD_FAILURE_BACKOFF) >= 0) {
          backoff = MAX_JOB_POD_FAILURE_BACKOFF;
          break;
        }
      }
      Duration elapsed = Duration.between(lastFailureTime, now);
      return backoff.compareTo(elapsed) < 0 ? Duration.ZERO : backoff.minus(elapsed);
    }
  }

  private final Map<String, Record> records = new HashMap<>();

  /**
   * Upstream's {@code newBackoffRecord}: the stored record advanced by newly finished pods; a
   * success resets the count to the failures that finished after it. Not stored yet.
   */
  synchronized Record next(String key, List<Pod> newSucceeded, List<Pod> newFailed) {
    Record old = records.getOrDefault(key, new Record(key, 0, null));
    Comparator<Pod> byFinish = Comparator.comparing(JobUtil::finishedTime);
    List<Pod> succeeded = newSucceeded.stream().sorted(byFinish).toList();
    List<Pod> failed = newFailed.stream().sorted(byFinish).toList();
    if (succeeded.isEmpty()) {
      if (failed.isEmpty()) {
        return old;
      }
      return new Record(
          key,
          old.failuresAfterLastSuccess() + failed.size(),
          JobUtil.finishedTime(failed.get(failed.size() - 1)));
    }
    Instant lastSuccess = JobUtil.finishedTime(succeeded.get(succeeded.size() - 1));
    int failures = 0;
    Instant lastFailure = null;
    for (int i = failed.size() - 1; i >= 0; i--) {
      Instant t = JobUtil.finishedTime(failed.get(i));
      if (!t.isAfter(lastSuccess)) {
        break;
      }
      if (lastFailure == null) {
        lastFailure = t;
      }
      failures++;
    }
    return new Record(key, failures, lastFailure);
  }

  synchronized void update(Record r) {
    records.put(r.key(), r);
  }

  synchronized void remove(String key) {
    records.remove(key);
  }

  static Duration remaining(Record r, Clock clock) {
    return r.remaining(clock.now());
  }
}
