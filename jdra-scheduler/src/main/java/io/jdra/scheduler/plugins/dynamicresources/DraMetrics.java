package io.jdra.scheduler.plugins.dynamicresources;

import java.time.Duration;

/**
 * What DynamicResources counts for the scheduler's metrics: upstream's {@code
 * scheduler_resourceclaim_creates_total{status}} and {@code scheduler_dra_bindingconditions_*}.
 * Thread-safe implementations; called from binding threads.
 */
public interface DraMetrics {
  DraMetrics NONE =
      new DraMetrics() {
        @Override
        public void claimCreate(String status) {}

        @Override
        public void bindingConditions(String driver, String result, Duration waited) {}
      };

  /** A ResourceClaim the scheduler created (extended resources): "success" or "failure". */
  void claimCreate(String status);

  /** One PreBind wait for a driver's binding conditions, with its result and duration. */
  void bindingConditions(String driver, String result, Duration waited);
}
