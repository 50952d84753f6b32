package io.jdra.scheduler.framework;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Data plugins keep for one scheduling attempt of one pod (upstream {@code CycleState}). Written in
 * PreFilter and Reserve (single-threaded), read by Filter and Score from many threads at once;
 * values stored here must therefore be safe to read concurrently. A new CycleState per attempt.
 */
public final class CycleState {
  private final ConcurrentHashMap<String, Object> data = new ConcurrentHashMap<>();
  private final Set<String> skipFilterPlugins = ConcurrentHashMap.newKeySet();
  private final Set<String> skipScorePlugins = ConcurrentHashMap.newKeySet();
  private volatile boolean recordPluginMetrics;

  /**
   * The Filter plugins to run, in order, without those PreFilter skipped: fixed once PreFilter has
   * run, so Filter does not ask the skip set once per plugin and node. Null before that.
   */
  volatile FilterPlugin[] filterPlugins;

  public void write(String key, Object value) {
    data.put(key, value);
  }

  /** The value under {@code key}, or null. */
  public <T> T read(String key, Class<T> type) {
    Object v = data.get(key);
    return v == null ? null : type.cast(v);
  }

  public void delete(String key) {
    data.remove(key);
  }

  /** Filter plugins whose PreFilter returned Skip: they are not run for this pod. */
  public Set<String> skipFilterPlugins() {
    return skipFilterPlugins;
  }

  /** Score plugins whose PreScore returned Skip. */
  public Set<String> skipScorePlugins() {
    return skipScorePlugins;
  }

  /** Whether this attempt is sampled for {@code scheduler_plugin_execution_duration_seconds}. */
  public boolean recordPluginMetrics() {
    return recordPluginMetrics;
  }

  public void setRecordPluginMetrics(boolean v) {
    recordPluginMetrics = v;
  }
}
