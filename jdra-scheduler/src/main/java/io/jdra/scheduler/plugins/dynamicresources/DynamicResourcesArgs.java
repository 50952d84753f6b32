package io.jdra.scheduler.plugins.dynamicresources;

import java.time.Duration;

/**
 * The plugin's configuration (upstream {@code DynamicResourcesArgs} in KubeSchedulerConfiguration).
 *
 * @param filterTimeout how long Filter may spend allocating for one node (default 10 s; zero
 *     disables the limit). Reaching it is an Error for the attempt, not "does not fit": a slow
 *     allocation says nothing about whether the devices exist.
 * @param bindingTimeout how long PreBind waits for devices' binding conditions (default 600 s)
 */
public record DynamicResourcesArgs(Duration filterTimeout, Duration bindingTimeout) {
  public static final Duration DEFAULT_FILTER_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration DEFAULT_BINDING_TIMEOUT = Duration.ofSeconds(600);

  public DynamicResourcesArgs {
    if (filterTimeout == null || filterTimeout.isNegative()) {
      throw new IllegalArgumentException("filterTimeout must not be negative: " + filterTimeout);
    }
    if (bindingTimeout == null || bindingTimeout.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new IllegalArgumentException("bindingTimeout must be at least 1s: " + bindingTimeout);
    }
  }

  public static DynamicResourcesArgs defaults() {
    return new DynamicResourcesArgs(DEFAULT_FILTER_TIMEOUT, DEFAULT_BINDING_TIMEOUT);
  }
}
