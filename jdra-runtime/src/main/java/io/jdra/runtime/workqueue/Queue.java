package io.jdra.runtime.workqueue;

import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/** client-go's queue: a FIFO plus the dirty and processing sets that give the contract. */
class Queue<T> implements WorkQueue<T> {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition ready = lock.newCondition();
  private final Condition idle = lock.newCondition();
  private final ArrayDeque<T> queue = new ArrayDeque<>();

  /** Items that need processing: queued, or added again while processing. */
  private final Set<T> dirty = new HashSet<>();

  private final Set<T> processing = new HashSet<>();
  private final QueueMetrics<T> metrics;
  private boolean shuttingDown;
  private boolean drain;

  Queue(QueueMetrics<T> metrics) {
    this.metrics = metrics;
  }

  @Override
  public void add(T item) {
    Objects.requireNonNull(item, "work queue item");
    lock.lock();
    try {
      if (shuttingDown || !dirty.add(item)) {
        return;
      }
      metrics.add(item);
      if (processing.contains(item)) {
        return; // queued again by done()
      }
      queue.addLast(item);
      ready.signal();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public int len() {
    lock.lock();
    try {
      return queue.size();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public T get() {
    lock.lock();
    try {
      while (queue.isEmpty() && !shuttingDown) {
        ready.await();
      }
      T item = queue.pollFirst();
      if (item == null) {
        return null;
      }
      metrics.get(item);
      processing.add(item);
      dirty.remove(item);
      return item;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void done(T item) {
    lock.lock();
    try {
      metrics.done(item);
      processing.remove(item);
      if (dirty.contains(item)) {
        queue.addLast(item);
        ready.signal();
      } else if (processing.isEmpty()) {
        idle.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void shutDown() {
    lock.lock();
    try {
      drain = false;
      shuttingDown = true;
      ready.signalAll();
      idle.signalAll();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void shutDownWithDrain() {
    lock.lock();
    try {
      drain = true;
      shuttingDown = true;
      ready.signalAll();
      while (!processing.isEmpty() && drain) {
        idle.awaitUninterruptibly();
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public boolean shuttingDown() {
    lock.lock();
    try {
      return shuttingDown;
    } finally {
      lock.unlock();
    }
  }

  QueueMetrics<T> metrics() {
    return metrics;
  }
}
