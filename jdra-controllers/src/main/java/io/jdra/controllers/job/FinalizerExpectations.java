package io.jdra.controllers.job;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The pods whose tracking finalizer this controller removed and whose update the informer has not
 * shown yet (upstream's {@code finalizerExpectations}): counted as without finalizer, so a lagging
 * cache never counts a finished pod twice. Thread-safe.
 */
final class FinalizerExpectations {
  private final Map<String, Set<String>> pending = new HashMap<>();

  synchronized void expectRemoved(String jobKey, String uid) {
    pending.computeIfAbsent(jobKey, k -> new HashSet<>()).add(uid);
  }

  synchronized void observed(String jobKey, String uid) {
    Set<String> s = pending.get(jobKey);
    if (s != null && s.remove(uid) && s.isEmpty()) {
      pending.remove(jobKey);
    }
  }

  /** A copy of the UIDs expected for the Job (upstream's {@code getExpectedUIDs}). */
  synchronized Set<String> expectedUids(String jobKey) {
    Set<String> s = pending.get(jobKey);
    return s == null ? Set.of() : Set.copyOf(s);
  }

  synchronized void forget(String jobKey) {
    pending.remove(jobKey);
  }
}
