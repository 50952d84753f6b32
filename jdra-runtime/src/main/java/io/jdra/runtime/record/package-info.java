/**
 * Events for {@code events.k8s.io/v1}: {@link io.jdra.runtime.record.EventRecorder} (non-blocking,
 * aggregating) and {@link io.jdra.runtime.record.FakeEventRecorder} for tests.
 */
package io.jdra.runtime.record;
