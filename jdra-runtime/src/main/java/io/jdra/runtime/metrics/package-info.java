/** The component HTTP endpoint: {@link io.jdra.runtime.metrics.MetricsServer}. */
package io.jdra.runtime.metrics;
