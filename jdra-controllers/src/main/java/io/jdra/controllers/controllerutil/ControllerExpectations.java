package io.jdra.controllers.controllerutil;

import io.jdra.runtime.clock.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What a controller is waiting to see in its informer (upstream's {@code
 * UIDTrackingControllerExpectations}): after creating or deleting N pods for a controller key, the
 * controller does not compute a new diff until its pod informer has shown those N creations and
 * deletions, or {@link #EXPECTATIONS_TIMEOUT} has passed. Without this, a sync that runs before the
 * informer caught up would create (or delete) the same pods a second time.
 *
 * <p>Deletions are tracked by pod key ({@code ns/name}), so a pod deleted twice (an informer relist
 * after a missed delete) is observed once. Thread-safe.
 */
public final class ControllerExpectations {
  /**
   * Upstream's {@code ExpectationsTimeout}: when the watch misses events, a controller acts again
   * after this long instead of waiting forever.
   */
  public static final Duration EXPECTATIONS_TIMEOUT = Duration.ofMinutes(5);

  private final Clock clock;
  private final Map<String, Expectation> byKey = new HashMap<>();

  private static final class Expectation {
    int add;
    int del;
    final Instant timestamp;
    final Set<String> deletedKeys = new HashSet<>();

    Expectation(int add, int del, Instant timestamp) {
      this.add = add;
      this.del = del;
      this.timestamp = timestamp;
    }
  }

  public ControllerExpectations(Clock clock) {
    this.clock = clock;
  }

  /**
   * Whether the controller may sync: nothing expected, everything observed, or the expectations
   * expired. A key never seen is satisfied (first sync, or after {@link #deleteExpectations}).
   */
  public synchronized boolean satisfiedExpectations(String key) {
    Expectation e = byKey.get(key);
    if (e == null) {
      return true;
    }
    return e.add <= 0 && e.del <= 0 || clock.since(e.timestamp).compareTo(EXPECTATIONS_TIMEOUT) > 0;
  }

  /** Expects {@code adds} pod creations for {@code key}, replacing earlier expectations. */
  public synchronized void expectCreations(String key, int adds) {
    byKey.put(key, new Expectation(adds, 0, clock.now()));
  }

  /** Expects the deletion of these pods ({@code ns/name}), replacing earlier expectations. */
  public synchronized void expectDeletions(String key, Set<String> podKeys) {
    Expectation e = new Expectation(0, podKeys.size(), clock.now());
    e.deletedKeys.addAll(podKeys);
    byKey.put(key, e);
  }

  /** One creation was observed (or will never happen because it failed). */
  public synchronized void creationObserved(String key) {
    Expectation e = byKey.get(key);
    if (e != null) {
      e.add--;
    }
  }

  /** The deletion of {@code podKey} was observed (or failed); counted once per pod. */
  public synchronized void deletionObserved(String key, String podKey) {
    Expectation e = byKey.get(key);
    if (e != null && e.deletedKeys.remove(podKey)) {
      e.del--;
    }
  }

  /** Forgets the key (its controller was deleted). */
  public synchronized void deleteExpectations(String key) {
    byKey.remove(key);
  }

  /** The outstanding creations and deletions of {@code key}, for tests: [add, del] or null. */
  public synchronized int[] get(String key) {
    Expectation e = byKey.get(key);
    return e == null ? null : new int[] {e.add, e.del};
  }
}
