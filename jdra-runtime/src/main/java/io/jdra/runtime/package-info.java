/**
 * The runtime every jdra component stands on, as client-go and component-base are for upstream:
 * {@link io.jdra.runtime.Ctx} (cancellation, contextual logger, clock) and the packages {@code
 * logging}, {@code clock}, {@code workqueue}, {@code cache}.
 */
package io.jdra.runtime;
