/**
 * Injectable time: {@link io.jdra.runtime.clock.Clock} (now, since, one-shot timers) with the
 * system implementation and {@link io.jdra.runtime.clock.FakeClock} for tests.
 */
package io.jdra.runtime.clock;
