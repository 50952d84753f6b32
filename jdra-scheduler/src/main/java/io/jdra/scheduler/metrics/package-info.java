/** The scheduler's Prometheus metrics with upstream names. */
package io.jdra.scheduler.metrics;
