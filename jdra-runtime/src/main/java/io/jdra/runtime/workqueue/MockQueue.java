package io.jdra.runtime.workqueue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A deterministic {@link RateLimitingQueue} for unit tests of controllers, as upstream's {@code
 * internal/workqueue/mockqueue.go}: no threads, no clock. It records what the code under test did,
 * and the test inspects {@link #state()} and drives processing by calling {@code get}/{@code done}
 * (or the controller's own sync method) itself.
 *
 * <ul>
 *   <li>{@code add} appends to {@code ready} unless the item is already there.
 *   <li>{@code get} returns the first ready item (moving it to {@code inFlight}) or null when none
 *       is ready; it never blocks.
 *   <li>{@code done} removes the item from {@code inFlight}; a {@code done} without a matching
 *       {@code get} is recorded in {@code mismatchedDone}.
 *   <li>{@code addAfter} with a positive delay records the item in {@code later} (an item already
 *       there keeps the shorter delay); nothing ever moves it to ready except {@link
 *       #moveLaterToReady()} or a new {@code add}.
 *   <li>{@code addRateLimited} only counts a failure; {@code forget} clears it.
 * </ul>
 *
 * Thread-safe, so it may also stand in where handlers run on other threads.
 */
public final class MockQueue<T> implements RateLimitingQueue<T> {
  private final List<T> ready = new ArrayList<>();
  private final List<T> inFlight = new ArrayList<>();
  private final List<T> mismatchedDone = new ArrayList<>();
  private final List<Delayed<T>> later = new ArrayList<>();
  private final Map<T, Integer> failures = new LinkedHashMap<>();
  private int shutDownCalled;
  private int shutDownWithDrainCalled;

  /** An item waiting in {@code later} with the delay it was added with. */
  public record Delayed<T>(T item, Duration duration) {}

  /** A snapshot of the mock's state; lists in call order. */
  public record State<T>(
      List<T> ready,
      List<T> inFlight,
      List<T> mismatchedDone,
      List<Delayed<T>> later,
      Map<T, Integer> failures,
      int shutDownCalled,
      int shutDownWithDrainCalled) {
    /** The empty state, for comparisons in test tables. */
    public static <T> State<T> empty() {
      return new State<>(List.of(), List.of(), List.of(), List.of(), Map.of(), 0, 0);
    }
  }

  public synchronized State<T> state() {
    return new State<>(
        List.copyOf(ready),
        List.copyOf(inFlight),
        List.copyOf(mismatchedDone),
        List.copyOf(later),
        Map.copyOf(failures),
        shutDownCalled,
        shutDownWithDrainCalled);
  }

  /** Removes the item from {@code later}, as if its delay was cancelled. */
  public synchronized void cancelLater(T item) {
    later.removeIf(d -> d.item().equals(item));
  }

  /** Moves every {@code later} item to {@code ready}, as if all delays passed. */
  public synchronized void moveLaterToReady() {
    List<Delayed<T>> all = new ArrayList<>(later);
    later.clear();
    all.forEach(d -> addLocked(d.item()));
  }

  @Override
  public synchronized void add(T item) {
    addLocked(item);
  }

  private void addLocked(T item) {
    if (!ready.contains(item)) {
      ready.add(item);
    }
  }

  @Override
  public synchronized int len() {
    return ready.size();
  }

  @Override
  public synchronized T get() {
    if (ready.isEmpty()) {
      return null;
    }
    T item = ready.remove(0);
    inFlight.add(item);
    return item;
  }

  @Override
  public synchronized void done(T item) {
    if (!inFlight.remove(item)) {
      mismatchedDone.add(item);
    }
  }

  @Override
  public synchronized void shutDown() {
    shutDownCalled++;
  }

  @Override
  public synchronized void shutDownWithDrain() {
    shutDownWithDrainCalled++;
  }

  @Override
  public synchronized boolean shuttingDown() {
    return shutDownCalled > 0 || shutDownWithDrainCalled > 0;
  }

  @Override
  public synchronized void addAfter(T item, Duration delay) {
    if (delay.isZero() || delay.isNegative()) {
      addLocked(item);
      return;
    }
    for (int i = 0; i < later.size(); i++) {
      Delayed<T> d = later.get(i);
      if (d.item().equals(item)) {
        if (delay.compareTo(d.duration()) < 0) {
          later.set(i, new Delayed<>(item, delay));
        }
        return;
      }
    }
    later.add(new Delayed<>(item, delay));
  }

  @Override
  public synchronized void addRateLimited(T item) {
    failures.merge(item, 1, Integer::sum);
  }

  @Override
  public synchronized void forget(T item) {
    failures.remove(item);
  }

  @Override
  public synchronized int numRequeues(T item) {
    return failures.getOrDefault(item, 0);
  }
}
