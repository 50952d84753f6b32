package io.jdra.scheduler.framework;

import java.time.Instant;
import java.util.HashSet;
import java.util.Set;

/**
 * A pod in the scheduling queue with its queueing history (upstream {@code QueuedPodInfo}). Owned
 * by the queue while queued and by the scheduling loop while popped: never touched by two threads
 * at once.
 */
public final class QueuedPodInfo {
  private PodInfo podInfo;
  private Instant timestamp;
  private final Instant initialAttemptTimestamp;
  private int attempts;

  /**
   * Plugins that rejected the pod in its last attempt; only their events can make it schedulable.
   */
  private final Set<String> unschedulablePlugins = new HashSet<>();

  /** Plugins that returned Pending (waiting for something outside the scheduler). */
  private final Set<String> pendingPlugins = new HashSet<>();

  /** The PreEnqueue plugin that keeps the pod out of activeQ, or null. */
  private String gatingPlugin;

  public QueuedPodInfo(PodInfo podInfo, Instant now) {
    this.podInfo = podInfo;
    this.timestamp = now;
    this.initialAttemptTimestamp = now;
  }

  public PodInfo podInfo() {
    return podInfo;
  }

  public void setPodInfo(PodInfo p) {
    podInfo = p;
  }

  /** When the pod was last added to the queue (activeQ order among equal priorities). */
  public Instant timestamp() {
    return timestamp;
  }

  public void setTimestamp(Instant t) {
    timestamp = t;
  }

  /** When the pod first entered the queue (for the scheduling SLI). */
  public Instant initialAttemptTimestamp() {
    return initialAttemptTimestamp;
  }

  public int attempts() {
    return attempts;
  }

  public void incrementAttempts() {
    attempts++;
  }

  public Set<String> unschedulablePlugins() {
    return unschedulablePlugins;
  }

  public Set<String> pendingPlugins() {
    return pendingPlugins;
  }

  public String gatingPlugin() {
    return gatingPlugin;
  }

  public void setGatingPlugin(String p) {
    gatingPlugin = p;
  }

  public String key() {
    return podInfo.key();
  }

  public String uid() {
    return podInfo.uid();
  }
}
